/**
 * A broker base URL with a user name or password in it (`https://user:pass@host`) is refused: the
 * connector would send them only as Basic auth of the token request (its API calls carry the
 * bearer token instead), so the broker never takes them, while the password would be shown in
 * errors and kept in the token cache's key. The refusal shows the URL with `***` for the password.
 *
 * @module
 */
import { CliError, ExitCode } from '../runtime/exit-codes.js';

/**
 * The URL with its password written `***` (`https://user:***@host/api`); a text that is no URL is
 * given back as it is (it carries no credentials a URL parser would find).
 *
 * @param url - a base URL as given
 */
export function withoutPassword(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password !== '') parsed.password = '***';
  return parsed.href.replace(/\/$/, '');
}

/**
 * Refuses a base URL that carries a user name or password.
 *
 * @param url - `--base-url`, else `HOGA_BASE_URL` (the profile's `baseUrl` lands there)
 * @throws {@link CliError} (exit 2) showing the URL without its password
 */
export function refuseCredentialsInBaseUrl(url: string | undefined): void {
  if (url === undefined || url === '') return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // the connector's check says what is wrong with it
  }
  if (parsed.username === '' && parsed.password === '') return;
  const host = `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/$/, '')}`;
  throw new CliError(
    `the broker base URL ${withoutPassword(url)} (--base-url, HOGA_BASE_URL or the profile's baseUrl) carries a user name or password, which hoga does not use (the broker is signed in to with the client id and secret): give the address without them, e.g. ${host}`,
    ExitCode.USAGE,
  );
}
