import { type Static, Type } from 'typebox';
import { Line, Nullable, Text, Timestamp } from './common.js';
import { PROJECT_KEY_PATTERN } from './project-key.js';

export const Project = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  repoUrl: Nullable(Type.String()),
  appUrl: Nullable(
    Type.String({ description: 'The app\'s base URL: access links and "open on page" links start with it' }),
  ),
  allowedOrigins: Type.Array(Type.String()),
  createdAt: Timestamp,
});
export type Project = Static<typeof Project>;

const RepoUrl = Line({ maxLength: 500, description: 'http(s) URL of the repository, used to link commits' });
const AppUrl = Line({
  maxLength: 500,
  description:
    "http(s) base URL of the app, e.g. https://app.example.com: client access links and 'open on page' links start with it",
});
const AllowedOrigins = Type.Array(Line({ maxLength: 300 }), {
  maxItems: 50,
  description: 'Origins the widget may call the API from (CORS), e.g. https://app.example.com',
});

export const CreateProjectBody = Type.Object(
  {
    key: Type.String({ pattern: PROJECT_KEY_PATTERN, description: '2-40 of a-z, 0-9 and -' }),
    name: Text(100),
    repoUrl: Type.Optional(RepoUrl),
    appUrl: Type.Optional(AppUrl),
    allowedOrigins: Type.Optional(AllowedOrigins),
  },
  {
    examples: [
      {
        key: 'web-app',
        name: 'Web app',
        repoUrl: 'https://github.com/example/web-app',
        allowedOrigins: ['https://app.example.com'],
      },
    ],
  },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const ProjectKeyParams = Type.Object({ key: Line({ maxLength: 40 }) });

export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Text(100)),
    repoUrl: Type.Optional(Nullable(RepoUrl)),
    appUrl: Type.Optional(Nullable(AppUrl)),
    allowedOrigins: Type.Optional(AllowedOrigins),
  },
  {
    minProperties: 1,
    description: 'The fields to change; null clears repoUrl or appUrl. The key cannot change.',
    examples: [{ repoUrl: 'https://github.com/example/web-app', appUrl: 'https://app.example.com' }],
  },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;
