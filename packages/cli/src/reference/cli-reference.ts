/**
 * docs/cli.md: the CLI reference, generated from the program's own `--help` texts and the exit-code
 * table (`pnpm docs:cli` writes it; a test checks that it is current).
 *
 * @module
 */
import type { Command } from 'commander';
import { commandPath, createProgram } from '../program.js';
import { EXIT_CODE_TABLE } from '../runtime/exit-codes.js';

/** The exit-code table in Markdown (the README shows the same table). */
export function exitCodeMarkdown(): string {
  return [
    '| code | meaning |',
    '| ---: | --- |',
    ...EXIT_CODE_TABLE.map(([code, meaning]) => `| ${code} | ${meaning} |`),
  ].join('\n');
}

function walk(command: Command, out: Command[]): void {
  out.push(command);
  for (const sub of command.commands) walk(sub, out);
}

const INTRO = `# hoga CLI reference

Generated from \`hoga <command> --help\` by \`pnpm docs:cli\` (packages/cli/src/reference/cli-reference.ts);
a test fails when this file is out of date. Install the command with \`npm i -g .\` or
\`pnpm add -g .\` at the repository root, or run it as \`pnpm -w hoga …\` from anywhere in the
repository. Relative paths are always the caller's.

## Exit codes and errors

EXIT_CODES

A failure is one or two sentences on stderr, \`hoga: …\` (the stack only with \`--verbose\`). A
command run with \`--json\` prints its failure as one line of JSON instead, with the same exit code:

\`\`\`json
{"error":{"code":"usage","message":"unknown option '--bogus'","exitCode":2,"hint":"see hoga quote --help"}}
\`\`\`

\`code\` is the broker's error code, the socket's
(\`ECONNREFUSED\`), the file system's (\`ENOENT\`; \`ENOSPC\` or \`EIO\` for a database that could not
be written), the store's (\`corrupt-database\`; \`database-locked\` from every command that met a file another process held locked for writing past the busy timeout, 5 s: run it again when that process is done; before, \`database-open-failed\` or \`failed\` by command), the engine's, \`unsupported-node\` (a Node.js older
than 22.18, exit 2), or else \`usage\`, \`failed\`,
\`denied\` or \`interrupted\` after the exit code; \`hint\` (the help to read) and \`details\` (more
lines: a request id, the reasons a deletion was refused) are there when there is something to say.
The error goes to **stderr**, as with \`gh … --json\` and \`kubectl … -o json\`, whose errors stay
on stderr too: stdout holds only results, so \`hoga … --json > out.json\` never stores an error as
data, and a listing cut short by a failure is never followed by a second JSON document. It is the
last line of stderr (a retry or warning logged before it is a \`hoga: …\` line); a script checks
the exit code, then reads it, e.g. \`hoga quote 005930 --json 2> err || tail -n 1 err | jq -r .error.message\`.
An order the risk checks deny or the broker refuses is a result, not an error: \`hoga order … --json\`
prints it on stdout (\`verdict\`, \`code\`, \`message\`) with exit 3 or 1.

## Configuration

Connection settings come from flags, else environment variables, else the profile chosen with
\`--profile\` (or \`HOGA_PROFILE\`, or the config file's \`defaultProfile\`) in \`hoga.config.json\`,
found in the working directory or a parent (or named by \`HOGA_CONFIG\`). A \`.env\` file beside the
config file or in the working directory is loaded; it never overrides a variable that is set.
\`hoga init\` writes a commented config with the profiles \`sim\` (the built-in simulator) and
\`live\` (the real broker), a \`.env\` template and \`.gitignore\` entries. A profile holds the keys
\`baseUrl\`, \`clientId\`, \`clientSecret\`, \`clientSecretFile\`, \`accountSeq\` (a string or a whole
number), \`db\` and \`tokenFile\`, each a string or null; the chosen profile with another key (a typo,
\`baseURL\`), a value of another type, or a config or \`.env\` file that cannot be read is a usage
error naming the file, the profile and the key (exit 2; before, a typo was ignored and \`"db": 5\`
opened the file \`5\`).

| variable | flag | meaning |
| --- | --- | --- |
| \`HOGA_BASE_URL\` | \`--base-url\` | the broker's address (one with a user name or password in it is refused, exit 2: the broker is signed in to with the client id and secret) |
| \`HOGA_CLIENT_ID\` | \`--client-id\` | OAuth client id |
| \`HOGA_CLIENT_SECRET\` | \`--client-secret\` | OAuth client secret (never printed, logged or stored, and taken out of the environment of the processes a command or a strategy starts); \`--client-secret -\` reads it from stdin. A secret given as a flag is visible to other users in \`ps\` while the command starts (hoga then shows \`***\` in its place) and stays in the shell's history: prefer stdin, a file or the environment |
| \`HOGA_CLIENT_SECRET_FILE\` | \`--client-secret-file\` | a file whose first line is the client secret (used when no secret is given otherwise; a profile's \`clientSecretFile\`, relative to the config file) |
| \`HOGA_ACCOUNT_SEQ\` | \`--account-seq\` | account for account-bound calls (default: the first the broker lists, remembered in the token cache) |
| \`HOGA_DB\` | \`--db\` | the database file (default \`./data/hoga.sqlite\`) |
| \`HOGA_TOKEN_FILE\` | | the token cache file (default \`~/.hoga/tokens.json\`) |
| \`HOGA_PROFILE\` | \`--profile\` | profile of \`hoga.config.json\` |
| \`HOGA_CONFIG\` | | the config file (default: \`hoga.config.json\` here or above) |
| \`HOGA_BACKOFF_BASE_MS\` | | first step of a broker command's retry back-off, in ms (default 1000: then 2 s, 4 s, 8 s, at most 16 s); tests set it small |
| \`NO_COLOR\` | | no colour even on a terminal |

## Where hoga writes

| what | where | when |
| --- | --- | --- |
| access token cache | \`HOGA_TOKEN_FILE\`, else \`~/.hoga/tokens.json\` (mode 0600, made so when read if found looser) | every broker command and hoga run: one token is shared by every hoga process on the client id, so a command never revokes a running engine's token; beside it, with no account configured, the account picked (the first the broker lists: asked once, not by every command, and again if the broker no longer knows it). Never the client secret |
| database | \`--db\`, else \`HOGA_DB\`, else the profile's \`db\`, else \`./data/hoga.sqlite\` (mode 0600, its \`-wal\`, \`-shm\` and \`-commands\` too, and a directory made for it 0700: it keeps the access token beside the token cache) | created only by \`hoga db migrate\`, \`hoga data download\`, \`hoga order\` (its orders and the risk states, \`--check\` included) and the engine (\`hoga run\`, \`hoga backtest\`); \`hoga db runs --delete\` and \`--delete-backtests\` delete backtests from an existing file; the other read commands open it read-only (one that cannot read another user's file in place reads a copy in \`$TMPDIR/hoga-read-<pid>-*\`, 0700, removed when it ends, or by the next read command if it was killed); broker commands with \`--db\` use an existing file only |
| backups | \`hoga db backup <file>\` (mode 0600, with \`<file>-commands\`; never over an existing file) | only when asked; safe while a run writes the database (a consistent snapshot, the run not stopped), unlike a \`cp\` of the file |
| logs | \`--log-file <file>\` (JSON lines, appended; the file is made 0600, an existing one of yours too; another user's readable file is named on stderr) | only when asked; secrets are redacted |
| config | \`hoga.config.json\`, \`.env\`, \`.gitignore\` | only \`hoga init\` |
| bundle | \`packages/cli/dist/hoga.mjs\` | the \`hoga\` command rebuilds it when a source file is newer (git ignores it) |

## Output

Tables group numbers (\`66,800\`) and show money in its currency's decimals (\`$1,234.56\`), as
does the report of \`hoga backtest\`; \`hoga db\` shows stored decimals as stored (\`72100\`). Gains
are green and losses red on a terminal only (\`NO_COLOR\` turns colour off). Tabular commands take
\`--json\` or \`--csv\` (\`hoga backtest\`, \`hoga risk\`, \`hoga order\`, and \`hoga db info\`, \`migrate\`, \`backup\`, one run
of \`db runs\` and its deletions: \`--json\` only; \`hoga data download\` prints its summary, database, candles, pages
and the symbols already cached, that way, its progress staying on stderr); both at once are a usage error, exit 2 before the command does anything (\`give --json or --csv, not both\`; before, \`hoga db\` and \`hoga data\` printed JSON and dropped \`--csv\`). A closed pipe (\`hoga candles … | head\`) ends quietly with exit 0; \`hoga run\`
whose output pipe closes stops as on Ctrl-C (\`onStop\`, the session stored \`stopped\`), exit 0, and so
does \`hoga backtest\` whose stdout or stderr (its strategies' log lines) closes, \`… 2>&1 | head\`: the run
stored \`stopped\` with its bars so far (before, exit 1 and the run left \`running\`).

## Commands
`;

/** The whole of docs/cli.md. */
export function renderCliReference(): string {
  const commands: Command[] = [];
  walk(createProgram(), commands);
  const sections = commands.map((command) => {
    command.configureHelp({ helpWidth: 100 });
    const path = commandPath(command);
    const title = path === '' ? '`hoga`' : `\`hoga ${path}\``;
    return `### ${title}\n\n\`\`\`text\n${command.helpInformation().trimEnd()}\n\`\`\`\n`;
  });
  return `${INTRO.replace('EXIT_CODES', exitCodeMarkdown())}\n${sections.join('\n')}`;
}
