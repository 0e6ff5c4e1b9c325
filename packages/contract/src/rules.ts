/** Product rules the widget and CLI check too; free of schema code, so bundles stay small. */

/** A rejection's note: at most this many characters once trimmed. */
export const VERIFY_NOTE_MAX = 500;

/** The pending-deploy list pages up to this many at once: a deploy step reads it whole. */
export const PENDING_DEPLOY_PAGE_MAX = 1000;
