/**
 * A separate hoga process for the token-cache tests: connects exactly as the broker commands do
 * (`connect()` with the environment), makes one authenticated call and prints what happened.
 *
 * Usage: tsx connection-worker.test-helper.ts [<db file>]   (environment: HOGA_*)
 */
import { connect } from './connection.js';

const db = process.argv[2];
const connection = connect(db === undefined ? {} : { db });
try {
  await connection.client.getCommissions();
  console.log(JSON.stringify({ ok: true, issued: connection.client.tokens.issuedCount }));
} catch (error) {
  const code = (error as { code?: unknown }).code;
  console.log(JSON.stringify({ ok: false, code: typeof code === 'string' ? code : String(error) }));
} finally {
  connection.close();
}
