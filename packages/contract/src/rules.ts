/** Product rules the widget and CLI check too; free of schema code, so bundles stay small. */

/** A rejection's note: at most this many characters once trimmed. */
export const VERIFY_NOTE_MAX = 500;

/** The pending-deploy list pages up to this many at once: a deploy step reads it whole. */
export const PENDING_DEPLOY_PAGE_MAX = 1000;

/** At most this many recent page errors travel with a comment (the newest). */
export const MAX_PAGE_ERRORS = 20;

/**
 * A signed-in reviewer's widget keeps their last actions (clicks, routes, fields typed in) and
 * the page's last requests, this many of each at most, and none older than `STEPS_KEPT_MS`:
 * the steps to reproduce a comment are read from them (steps.ts).
 */
export const STEPS_ACTIONS_MAX = 50;
export const STEPS_REQUESTS_MAX = 50;
export const STEPS_KEPT_MS = 5 * 60_000;
/** The longest words of a step (a button's name, a field's label, an error); longer ones are cut. */
export const STEP_WORDS_MAX = 200;
/** The steps to reproduce a comment keep its last this many (the pin included). */
export const STEPS_MAX = 30;

/** Most regions a reviewer may hide on one comment's screenshot (the widget joins any more into one). */
export const HIDDEN_REGIONS_MAX = 50;

/** The largest screenshot the server takes; the widget encodes under 300 KB. */
export const SCREENSHOT_MAX_BYTES = 512 * 1024;

/** The largest replay the server takes, as the widget sends it (its events as JSON, gzipped). */
export const REPLAY_MAX_BYTES = 4 * 1024 * 1024;

/** The most a replay may hold once decompressed: what reading one may cost the server. */
export const REPLAY_UNPACKED_MAX_BYTES = 48 * 1024 * 1024;

/** How many seconds before a comment its project's replay keeps: the least, the most, and unless an admin chooses. */
export const REPLAY_SECONDS = { min: 30, max: 120, default: 60 } as const;

/** The largest image attached to a comment or a reply (a phone's photo, re-encoded by the widget, is far below). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Images one person attaches to one comment's thread at most (to the comment and to their
 * replies together): a share of their own, so that nobody's images fill the thread for the
 * others. The verdict's picture and the picture of now take none of it.
 */
export const IMAGES_PER_PERSON_MAX = 20;

/** The longest a request for changes may wait for one (`GET /api/comments/changes?wait=`), in seconds. */
export const CHANGES_WAIT_MAX_S = 60;

/** At most this many such waits at once per user (all their sessions and keys), and per session or API key. */
export const CHANGES_WAITS_PER_USER = 10;
export const CHANGES_WAITS_PER_CREDENTIAL = 5;

/**
 * The longest side an image may declare. The pictures the clients make are far smaller (an
 * attached image at most 2,000 pixels a side, a screenshot of the window at most 1,600 wide
 * and as tall as the window at that scale); a browser's canvas stops at 16,384 or 32,767.
 */
export const IMAGE_SIDE_MAX_PX = 16_384;

/** The most pixels an image may declare: 50 megapixels, 200 MB drawn at four bytes a pixel. */
export const IMAGE_PIXELS_MAX = 50_000_000;

/** At most this many labels in a workspace: a list a person can still choose from. */
export const LABELS_MAX = 100;

/** The longest comment, reply or note text the API takes. */
export const COMMENT_BODY_MAX = 10_000;

/** The automated reply a confirmed fix adds to its comment. */
export const VERIFIED_REPLY = 'Verified ✓';

/** A rejection's reply: this, then the author's note. */
export const REJECTED_REPLY_PREFIX = 'Not fixed: ';

/** Sent by the MCP tools (the server's /mcp and `svc-cli mcp`) with every call: it grants nothing, it only lets a timeline say "through an agent". */
export const VIA_HEADER = 'x-svc-via';

/** How urgent a comment is, least first: stored as its index. */
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;

/** The colours a label may have: each legible as text on the apps' light and dark backgrounds. */
export const LABEL_COLORS = ['gray', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];
