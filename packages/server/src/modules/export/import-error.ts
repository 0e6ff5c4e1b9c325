// The one error of an import, thrown by each of its parts (the lines, the file, the zip, the
// checks, the writes): the admin command prints its message and exits refused.

/** Why a file cannot be imported, naming the line; nothing was written. */
export class ImportError extends Error {}
