/** A problem with the import's input or target, reported as one line (no stack trace). */
export class ImportError extends Error {}
