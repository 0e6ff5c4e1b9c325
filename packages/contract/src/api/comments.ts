// Comments and their threads: creating and finding comments, their screenshot, replay, anchor and
// images, replies, assigning, labelling, applying a fix, verifying it, reopening and archiving
// (served by the server's modules/comments and verification).
import { Type } from 'typebox';
import {
  ApplyBody,
  AssignBody,
  CHANGES_WAIT_MAX_S,
  CHANGES_WAITS_PER_CREDENTIAL,
  CHANGES_WAITS_PER_USER,
  Comment,
  CommentChanges,
  CommentChangesQuery,
  CommentIdParams,
  CommentImage,
  CommentImageParams,
  CommentLabelsBody,
  CommentPatch,
  CommentWithReplies,
  CreateCommentBody,
  FindCommentsQuery,
  IMAGE_MAX_BYTES,
  IMAGE_PIXELS_MAX,
  IMAGE_SIDE_MAX_PX,
  IMAGES_PER_PERSON_MAX,
  ImageQuery,
  ListCommentsQuery,
  MentionablePeople,
  Page,
  PriorityBody,
  ProjectKeyParams,
  REPLAY_MAX_BYTES,
  REPLAY_UNPACKED_MAX_BYTES,
  RepinBody,
  Reply,
  ReplyBody,
  SCREENSHOT_MAX_BYTES,
  VerifyBody,
} from '../index.js';
import { endpoint } from './endpoint.js';

/** How a replay is sent and served: rrweb's events as a JSON array, gzipped. */
export const REPLAY_TYPES = ['application/gzip'] as const;

/** The image types a screenshot is stored and served as. */
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** What recording a fix does with its commit: the apply endpoint's words, which the agents' apply_fix says too. */
export const FIX_WORDS = {
  live: 'With commitSha, the fix goes Live with the first reported build that contains the commit.',
  link: 'Without commitUrl, the link is built from the project repoUrl when it is on GitHub, GitLab, Bitbucket, Gitea or Codeberg.',
} as const;

/** What an uploaded image's header may declare, as the upload endpoints describe it. */
const DIMENSIONS = ` and at most ${IMAGE_SIDE_MAX_PX} pixels a side and ${IMAGE_PIXELS_MAX / 1_000_000} megapixels as its header declares them (413 above, before it is read further)`;
/** How uploads are paced and held to the storage quota, as the upload endpoints describe it. */
const UPLOAD_LIMITS =
  ' Uploads are paced per person, by number a minute and by megabytes an hour (429 with Retry-After past either, naming it), and held to the workspace’s storage quota (413 `storage_quota_exceeded`, nothing stored; see GET /api/workspace/storage).';

export const commentEndpoints = {
  'PUT /api/comments/{id}/screenshot': endpoint({
    summary: "Attach the comment's screenshot (its author); replaces the one it had",
    description: `The image itself as the body: ${SCREENSHOT_TYPES.join(', ')}, at most ${SCREENSHOT_MAX_BYTES / 1024} KB (413 above)${DIMENSIONS}. The type is read from the bytes: anything else is 415.${UPLOAD_LIMITS}`,
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 413, 415, 429],
    raw: 'body',
    bodyTypes: SCREENSHOT_TYPES,
  }),
  'PUT /api/comments/{id}/anchor': endpoint({
    summary: "Move the comment's pin to another element (re-pin)",
    description:
      'For its author, a member or an admin (a quick-access account: its own comments only). The anchor is replaced; the status, replies and notifications stay as they are, and nobody is notified. The comment then says who moved it and when (`repinned`).',
    params: CommentIdParams,
    body: RepinBody,
    answers: { 200: Comment },
    problems: [403, 404],
  }),
  'GET /api/comments/{id}/screenshot': endpoint({
    summary: "The comment's screenshot, to whoever may read the comment",
    params: CommentIdParams,
    answers: { 200: Type.Unknown({ description: 'The image' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: SCREENSHOT_TYPES },
  }),
  'PUT /api/comments/{id}/replay': endpoint({
    summary: 'Attach the replay of the moments before the comment (its author, where its project keeps replays)',
    description: `The replay the widget kept (rrweb's events as a JSON array, gzipped) as the body: ${REPLAY_TYPES.join(', ')}, at most ${REPLAY_MAX_BYTES / 1024 / 1024} MB as sent and ${REPLAY_UNPACKED_MAX_BYTES / 1024 / 1024} MB decompressed (413 above, naming which); anything that is not gzipped JSON events is 415. Stored compressed, as sent; replaces the one the comment had. Taken only while the comment's project keeps replays (409 once an admin turned them off). Served to whoever may read the comment (GET), deleted with it.${UPLOAD_LIMITS}`,
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409, 413, 415, 429],
    raw: 'body',
    bodyTypes: REPLAY_TYPES,
  }),
  'GET /api/comments/{id}/replay': endpoint({
    summary: "The comment's replay (rrweb's events as JSON, gzipped), to whoever may read the comment",
    params: CommentIdParams,
    answers: { 200: Type.Unknown({ description: 'The replay, gzipped' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: REPLAY_TYPES },
  }),
  'POST /api/comments/{id}/images': endpoint({
    summary: 'Attach an image to a comment, to your reply to it, to your verdict, or as the picture of now',
    description: `The image itself as the body: ${SCREENSHOT_TYPES.join(', ')}, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB (413 above)${DIMENSIONS}; the type is read from the bytes (anything else, or a file cut short, is 415). Its metadata (EXIF and its location, XMP, IPTC, comments, text chunks) is removed before it is stored. To the comment: its author, admins and members; with \`?reply=\`, to that reply: its author. Each person attaches at most ${IMAGES_PER_PERSON_MAX} to a thread, to the comment and their replies together (409 past that): a share of their own, which nobody else's images take. With \`?verdict=true\`, the element as you saw it when you gave your latest verdict (Verified or Not fixed): kept with that timeline event, once (409 when you gave none, or it has one). With \`?now=true\`, the element as it is now on your page, which your widget takes while the fix waits for your verdict (applied or Live, not yet verified; 409 otherwise), from those who may verify it (its author, an admin; 403 otherwise): the comment keeps the latest only (it replaces the one before, whose bytes are deleted, in one transaction), with the commit of the fix it was taken for (\`commitSha\`), and shows it to the team like its other images; neither it nor the verdict's picture takes a place among the ${IMAGES_PER_PERSON_MAX}. A verdict keeps it as it was (the last look before the verdict), until the next fix's picture of now replaces it; the verdict's own picture goes with \`?verdict=true\`. \`now\` goes alone (400 with \`reply\` or \`verdict\`).${UPLOAD_LIMITS}`,
    params: CommentIdParams,
    query: ImageQuery,
    answers: { 201: CommentImage },
    problems: [400, 403, 404, 409, 413, 415, 429],
    raw: 'body',
    bodyTypes: SCREENSHOT_TYPES,
  }),
  'GET /api/comments/{id}/images/{imageId}': endpoint({
    summary: "An image of the comment's thread, to whoever may read the comment",
    params: CommentImageParams,
    answers: { 200: Type.Unknown({ description: 'The image' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: SCREENSHOT_TYPES },
  }),
  'POST /api/projects/{key}/comments': endpoint({
    summary: 'Pin a comment on a page',
    params: ProjectKeyParams,
    body: CreateCommentBody,
    answers: { 201: Comment },
    problems: [403, 404, 429],
  }),
  'GET /api/projects/{key}/comments': endpoint({
    summary: "A project's comments, newest first",
    params: ProjectKeyParams,
    query: ListCommentsQuery,
    answers: { 200: Page(Comment) },
    problems: [404],
  }),
  'GET /api/projects/{key}/people': endpoint({
    summary: 'Who a comment of the project may mention: whoever can read it',
    description:
      'The team (admins, members and agents) and the clients who can see the project, by name. A client limited to another project is not among them. Write `<@id>` in a comment or a reply to mention one.',
    params: ProjectKeyParams,
    answers: { 200: MentionablePeople },
    problems: [404],
  }),
  'GET /api/comments/changes': endpoint({
    summary: 'Wait for feedback: comments created or changed since a cursor (long poll)',
    description: `Without a cursor, answers at once with the cursor of now. With one, answers the comments created or changed since (oldest change first) and the next cursor; when there are none, waits up to \`wait\` seconds (at most ${CHANGES_WAIT_MAX_S}) and answers as soon as one of the project (of any project, without \`project\`) changes. Deleted comments are not reported. One user may hold ${CHANGES_WAITS_PER_USER} waits at once, one session or API key ${CHANGES_WAITS_PER_CREDENTIAL}: past that, 429.`,
    query: CommentChangesQuery,
    answers: { 200: CommentChanges },
    problems: [404, 429],
  }),
  'GET /api/comments': endpoint({
    summary: 'Find comments across your projects: by project, status, author, page, text and time',
    description:
      'Newest first (sort=oldest for the other way), keyset-paginated. q matches whole words, any case, in the comment or any of its replies, using the database full-text index. Answers a weak ETag: send it back as If-None-Match to get 304 while nothing changed.',
    query: FindCommentsQuery,
    answers: { 200: Page(Comment) },
    problems: [404],
    conditional: true,
  }),
  'GET /api/comments/{id}': endpoint({
    summary: 'A comment with its replies and its timeline',
    params: CommentIdParams,
    answers: { 200: CommentWithReplies },
    problems: [404],
  }),
  'POST /api/comments/{id}/replies': endpoint({
    summary: 'Reply to a comment',
    params: CommentIdParams,
    body: ReplyBody,
    answers: { 201: Reply },
    problems: [403, 404, 429],
  }),
  'POST /api/comments/{id}/apply': endpoint({
    summary: 'Record the fix of a comment, with its commit or without one',
    description: `${FIX_WORDS.live} Without it (a change made on the site itself, such as copy in a content system), there is nothing to deploy: the comment is Live at once. ${FIX_WORDS.link}`,
    params: CommentIdParams,
    body: ApplyBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/assignee': endpoint({
    summary: 'Put someone of the team, or an agent, on a comment (null: nobody)',
    description:
      'For admins and members. The assignee is told (not when they assign themselves) and stays through apply, Live and verify; a fix sent back tells them. An archived comment is refused (409).',
    params: CommentIdParams,
    body: AssignBody,
    answers: { 200: Comment },
    problems: [400, 403, 404, 409],
  }),
  'POST /api/comments/{id}/claim': endpoint({
    summary: 'Take an open comment yourself, if nobody is on it',
    description:
      'For agents and people of the team, before they start on a comment: exactly one of those claiming at once wins. Already yours: answered as it is. Someone else on it: 409, naming them. Not open: 409.',
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/priority': endpoint({
    summary: 'Set how urgent a comment is (the team); nobody is notified',
    params: CommentIdParams,
    body: PriorityBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PATCH /api/comments/{id}': endpoint({
    summary: 'Change fields of a comment: its due date (the team); nobody is notified',
    description:
      'The fields given change, the others stay. `dueOn`: a calendar day (YYYY-MM-DD), or null to clear it; a day that does not exist is 400 and nothing is written.',
    params: CommentIdParams,
    body: CommentPatch,
    answers: { 200: Comment },
    problems: [400, 403, 404],
  }),
  'PUT /api/comments/{id}/labels': endpoint({
    summary: "Set the workspace's labels a comment has (the team); nobody is notified",
    description: 'The labels it has from now on, replacing those it had; a label of no workspace of yours is 400.',
    params: CommentIdParams,
    body: CommentLabelsBody,
    answers: { 200: Comment },
    problems: [400, 403, 404, 409],
  }),
  'POST /api/comments/{id}/reopen': endpoint({
    summary: 'Reopen an applied comment',
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'POST /api/comments/{id}/archive': endpoint({
    summary: 'Archive a comment',
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404],
  }),
  'DELETE /api/comments/{id}': endpoint({
    summary: 'Delete a comment with its replies (author or admin)',
    params: CommentIdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/comments/{id}/verify': endpoint({
    summary: "The author's verdict on an applied fix",
    description:
      'ok: true sets verifiedAt and adds the automated reply "Verified ✓" (idempotent). ok: false needs a note; the comment reopens, the reply "Not fixed: <note>" is added and whoever applied it is notified. Only the author or a workspace admin; only while applied (else 409).',
    params: CommentIdParams,
    body: VerifyBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
} as const;
