// A database of its own for one run of the soak or the browser tests, on a PostgreSQL server whose
// role may create databases: what the run reads back is only what it did, and it is dropped after.
import { randomBytes } from "node:crypto";
import pg from "pg";

/** Creates `<prefix>_<random>` on the server of `serverUrl`; answers its name, URL and a drop. */
export async function createThrowawayDatabase(serverUrl, prefix) {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      onServer(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ),
  };
}

async function onServer(serverUrl, work) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
