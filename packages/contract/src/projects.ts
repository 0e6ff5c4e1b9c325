import { type Static, Type } from 'typebox';
import { Line, Name, Nullable, Timestamp } from './common.js';
import { PAGE_PARAM_PATTERN, PAGE_PARAMS_MAX } from './page.js';
import { PROJECT_KEY_PATTERN } from './project-key.js';
import { REPLAY_SECONDS } from './rules.js';

const ReplaySeconds = Type.Integer({
  minimum: REPLAY_SECONDS.min,
  maximum: REPLAY_SECONDS.max,
  description: `How many seconds before a comment are kept (${REPLAY_SECONDS.min} to ${REPLAY_SECONDS.max}; ${REPLAY_SECONDS.default} unless chosen)`,
});

/** Whether the project's widget keeps a replay of the moments before a reviewer's comment, and how. */
export const ReplaySettings = Type.Object(
  {
    on: Type.Boolean({
      description:
        'The widget records the page while a reviewer is signed in (never a visitor), keeps only the last `seconds`, and sends it with a comment unless the reviewer leaves it out. Off unless an admin turns it on',
    }),
    seconds: ReplaySeconds,
    maskAllText: Type.Boolean({
      description: 'Every text of the page is masked in the replay, not only what people type (always masked)',
    }),
  },
  { description: 'Replays of the moments before a comment' },
);
export type ReplaySettings = Static<typeof ReplaySettings>;

const ReplayChanges = Type.Object(
  {
    on: Type.Optional(Type.Boolean()),
    seconds: Type.Optional(ReplaySeconds),
    maskAllText: Type.Optional(Type.Boolean()),
  },
  { description: 'What to change of the replay settings; the rest stays', minProperties: 1 },
);

export const Project = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  repoUrl: Nullable(Type.String()),
  appUrl: Nullable(
    Type.String({ description: 'The app\'s base URL: access links and "open on page" links start with it' }),
  ),
  allowedOrigins: Type.Array(Type.String()),
  pageParams: Type.Array(Type.String(), {
    description:
      'Query parameters that make another page of the app (e.g. tab): comments of ?tab=a and ?tab=b are apart',
  }),
  replay: ReplaySettings,
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

const PageParams = Type.Array(Type.String({ pattern: PAGE_PARAM_PATTERN }), {
  maxItems: PAGE_PARAMS_MAX,
  description:
    'Names of the query parameters that identify a page of the app (e.g. ["tab"]); other parameters are ignored when telling pages apart',
});

export const CreateProjectBody = Type.Object(
  {
    key: Type.String({ pattern: PROJECT_KEY_PATTERN, description: '2-40 of a-z, 0-9 and -' }),
    name: Name(100),
    repoUrl: Type.Optional(RepoUrl),
    appUrl: Type.Optional(AppUrl),
    allowedOrigins: Type.Optional(AllowedOrigins),
    pageParams: Type.Optional(PageParams),
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
    name: Type.Optional(Name(100)),
    repoUrl: Type.Optional(Nullable(RepoUrl)),
    appUrl: Type.Optional(Nullable(AppUrl)),
    allowedOrigins: Type.Optional(AllowedOrigins),
    pageParams: Type.Optional(PageParams),
    replay: Type.Optional(ReplayChanges),
  },
  {
    minProperties: 1,
    description: 'The fields to change; null clears repoUrl or appUrl. The key cannot change.',
    examples: [{ repoUrl: 'https://github.com/example/web-app', appUrl: 'https://app.example.com' }],
  },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

/** An origin a project's widget ran on but may not call the API from: what to allow, perhaps. */
export const RefusedOrigin = Type.Object({
  origin: Type.String({ description: 'as the browser sent it, e.g. https://staging.example.com' }),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
  attempts: Type.Integer({ description: 'how many times the widget was refused there' }),
});
export type RefusedOrigin = Static<typeof RefusedOrigin>;

export const OriginCheckQuery = Type.Object({ project: Line({ minLength: 1, maxLength: 40 }) });

/** Whether the page asking (its `Origin` header) may use the project's widget. */
export const OriginCheck = Type.Object({
  origin: Nullable(Type.String({ description: "the page's origin as its browser sent it" })),
  allowed: Type.Boolean(),
});
