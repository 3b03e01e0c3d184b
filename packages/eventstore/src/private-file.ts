/**
 * Files that hold events or read models (key and password hashes among them) are the owner's only.
 * SQLite creates a new database 0644 (less the umask) but gives its -wal and -shm files the mode of
 * the database file, so creating that file 0600 before SQLite opens it covers all three.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates `file` empty with mode 0600 (and its missing directories 0700) unless it exists. */
export function createPrivateFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
}
