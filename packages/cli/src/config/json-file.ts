/**
 * The text of a JSON file as the CLI's config readers parse it.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * Reads `file` as UTF-8 without a leading byte-order mark, which some Windows editors write and
 * `JSON.parse` refuses with an invisible character in its message (`Unexpected token '﻿'`).
 *
 * @param file - the file
 * @throws the file system's error when it cannot be read
 */
export function readJsonText(file: string): string {
  const text = readFileSync(file, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
