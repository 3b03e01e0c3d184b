/** The exit codes scripts can test, and the error that carries one out of a command. */

export const EXIT = {
  ok: 0,
  /** The API refused (4xx), a bundle or a backup does not verify. */
  refused: 1,
  usage: 2,
  /** No answer from the server, or a 5xx. */
  unreachable: 3,
  /** `views rebuild`: a running process holds the data directory. */
  dataDirInUse: 4,
  /** A migration stopped at its --limit before the end: run it again to go on. */
  incomplete: 5,
  /** The API answered 404 (or the id cannot name anything): no such document, account, form or task. */
  notFound: 6,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  the API refused the request (4xx but 404: the problem's title and detail on stderr);
     approve, decline, sign, done: you have no open task on the document;
     verify: the bundle does not verify; restore: the backup does not verify (the file is named);
     migrate: a personal value is still in clear in the new directory (file and field named)
  2  usage: unknown command or option, missing argument, a file that cannot be read or written,
     bad JSON, no --url or --key, a --url that is no http:// or https:// URL;
     views rebuild: not a data directory, or nothing to rebuild; backup: not a data directory;
     restore: the target directory is not empty; migrate: not a data directory, or a target that is
     neither empty nor this migration's
  3  the server cannot be reached, or it failed (5xx)
  4  views rebuild: the data directory is in use by a running process; migrate: the old one is
  5  migrate: stopped at --limit before the end (run the same command again to go on)
  6  not found: no such document, account, form or file (the API's 404, or an id of a shape
     that names nothing)`;

/** Stops a command with `exitCode` and `message` on stderr. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}
