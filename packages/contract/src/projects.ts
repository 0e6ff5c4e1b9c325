import { type Static, Type } from 'typebox';
import { Line, Nullable, Text, Timestamp } from './common.js';
import { PROJECT_KEY_PATTERN } from './project-key.js';

export const Project = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  repoUrl: Nullable(Type.String()),
  allowedOrigins: Type.Array(Type.String()),
  createdAt: Timestamp,
});
export type Project = Static<typeof Project>;

export const CreateProjectBody = Type.Object(
  {
    key: Type.String({ pattern: PROJECT_KEY_PATTERN, description: '2-40 of a-z, 0-9 and -' }),
    name: Text(100),
    repoUrl: Type.Optional(
      Line({ maxLength: 500, description: 'http(s) URL of the repository, used to link commits' }),
    ),
    allowedOrigins: Type.Optional(
      Type.Array(Line({ maxLength: 300 }), {
        maxItems: 50,
        description: 'Origins the widget may call the API from (CORS), e.g. https://app.example.com',
      }),
    ),
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
