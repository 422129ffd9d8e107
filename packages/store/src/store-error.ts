/**
 * Errors raised by the store. Every one carries a stable kebab-case `code`.
 *
 * @module
 */
import { HogaError, type HogaErrorOptions } from '@hoga/core';

/** Stable codes of {@link StoreError} and its subclasses. */
export const StoreErrorCode = {
  /** The file could not be opened or created. */
  OPEN_FAILED: 'database-open-failed',
  /** Another process held the file's write lock past the busy timeout: run the command again later. */
  DATABASE_LOCKED: 'database-locked',
  /** The file is not a hoga database (a text file, another application's SQLite file). */
  FOREIGN_DATABASE: 'foreign-database',
  /** The file is a SQLite file but its content is damaged. */
  CORRUPT_DATABASE: 'corrupt-database',
  /** The file was written by a newer hoga whose schema this code does not know. */
  SCHEMA_TOO_NEW: 'schema-too-new',
  /** The file's schema is older than this code and was opened without migrating. */
  SCHEMA_TOO_OLD: 'schema-too-old',
  /** A migration failed; the file was left at its previous version. */
  MIGRATION_FAILED: 'migration-failed',
  /** An order with the same `clientOrderId` is already stored. */
  DUPLICATE_CLIENT_ORDER_ID: 'duplicate-client-order-id',
  /** A broker order id is already linked to another order. */
  DUPLICATE_BROKER_ORDER_ID: 'duplicate-broker-order-id',
  /** No order matches the given id. */
  ORDER_NOT_FOUND: 'order-not-found',
  /** A durable write was attempted inside a transaction opened with normal durability. */
  DURABILITY_CONFLICT: 'durability-conflict',
  /** A token-cache lease could not be taken in time. */
  LOCK_TIMEOUT: 'lock-timeout',
  /** A stored row holds a value the code cannot read back. */
  CORRUPT_ROW: 'corrupt-row',
  /** Rows could not be written (a full disk, a lock held past the busy timeout, a lost writer thread). */
  WRITE_FAILED: 'write-failed',
  /** An argument was out of its domain (e.g. an empty range). */
  INVALID_ARGUMENT: 'invalid-argument',
} as const;

/** One of the {@link StoreErrorCode} values. */
export type StoreErrorCode = (typeof StoreErrorCode)[keyof typeof StoreErrorCode];

/**
 * Base class of every store error.
 *
 * @example
 * ```ts
 * try { HogaDatabase.open('notes.txt'); } catch (e) { if (e instanceof StoreError) console.error(e.code); }
 * ```
 */
export class StoreError extends HogaError {
  /** The stable error code. */
  declare readonly code: StoreErrorCode;

  /**
   * @param code - stable error code
   * @param message - what was expected and what was found
   * @param options - optional cause and details
   */
  constructor(code: StoreErrorCode, message: string, options: HogaErrorOptions = {}) {
    super(code, message, options);
  }
}

/** The file is not a hoga database, or is damaged (code `foreign-database` or `corrupt-database`). */
export class DatabaseFileError extends StoreError {
  /** Absolute path of the offending file. */
  readonly file: string;

  /**
   * @param code - `foreign-database` or `corrupt-database`
   * @param file - the file
   * @param reason - what was found
   * @param cause - the underlying SQLite error, if any
   */
  constructor(
    code: typeof StoreErrorCode.FOREIGN_DATABASE | typeof StoreErrorCode.CORRUPT_DATABASE,
    file: string,
    reason: string,
    cause?: unknown,
  ) {
    const what = code === StoreErrorCode.FOREIGN_DATABASE ? 'is not a hoga database' : 'is damaged';
    super(code, `${file} ${what}: ${reason}`, { cause, details: { file } });
    this.file = file;
  }
}

/** The file's schema version is not the one this code works with (`schema-too-new` / `schema-too-old`). */
export class SchemaVersionError extends StoreError {
  /** Absolute path of the file. */
  readonly file: string;
  /** Schema version recorded in the file (`PRAGMA user_version`). */
  readonly fileVersion: number;
  /** Latest schema version this code knows. */
  readonly supportedVersion: number;

  /**
   * @param file - the file
   * @param fileVersion - version found in the file
   * @param supportedVersion - latest version known to this code
   */
  constructor(file: string, fileVersion: number, supportedVersion: number) {
    const tooNew = fileVersion > supportedVersion;
    super(
      tooNew ? StoreErrorCode.SCHEMA_TOO_NEW : StoreErrorCode.SCHEMA_TOO_OLD,
      tooNew
        ? `${file} has schema version ${fileVersion}, newer than the latest this hoga knows (${supportedVersion}); ` +
            'upgrade hoga, the file was left untouched'
        : `${file} has schema version ${fileVersion}, older than ${supportedVersion}; run \`hoga db migrate\``,
      { details: { file, fileVersion, supportedVersion } },
    );
    this.file = file;
    this.fileVersion = fileVersion;
    this.supportedVersion = supportedVersion;
  }
}
