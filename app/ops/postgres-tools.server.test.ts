import { describe, expect, it } from "vitest";
import { postgresClientEnvironment, postgresDatabaseName } from "./postgres-tools.server";

describe("postgresClientEnvironment", () => {
  it("hands pg_dump the URL's parts as libpq's variables, the password only as PGPASSWORD", () => {
    const environment = postgresClientEnvironment(
      "postgres://tienda%40ops:s3cr%2Ft%20pw@db.internal:6543/tienda_prod?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=storefront",
      { PATH: "/usr/bin", HOME: "/root" },
    );
    expect(environment).toEqual({
      PATH: "/usr/bin",
      HOME: "/root",
      PGHOST: "db.internal",
      PGPORT: "6543",
      PGUSER: "tienda@ops",
      PGPASSWORD: "s3cr/t pw",
      PGDATABASE: "tienda_prod",
      PGSSLMODE: "verify-full",
      PGSSLROOTCERT: "/etc/ca.pem",
      PGAPPNAME: "storefront",
      PGCONNECT_TIMEOUT: "10",
    });
  });

  it("lets no inherited variable send it to another server, database or user", () => {
    const environment = postgresClientEnvironment("postgresql://app@127.0.0.1/tienda", {
      PGHOST: "elsewhere",
      PGPORT: "7777",
      PGDATABASE: "otra",
      PGUSER: "root",
      PGPASSWORD: "not-this-one",
      PGSERVICE: "prod",
      PGPASSFILE: "/root/.pgpass",
      PGCONNECT_TIMEOUT: "3",
    });
    expect(environment).toEqual({
      PGHOST: "127.0.0.1",
      PGUSER: "app",
      PGDATABASE: "tienda",
      // A URL without a password may leave it to the machine's password file.
      PGPASSFILE: "/root/.pgpass",
      PGCONNECT_TIMEOUT: "3",
    });
  });

  it("reads a socket directory, an IPv6 address and node-postgres' ssl=true", () => {
    expect(
      postgresClientEnvironment("postgres://app@%2Fvar%2Frun%2Fpostgresql/tienda", {}).PGHOST,
    ).toBe("/var/run/postgresql");
    expect(postgresClientEnvironment("postgres://app@[::1]:5433/tienda", {})).toMatchObject({
      PGHOST: "::1",
      PGPORT: "5433",
    });
    expect(postgresClientEnvironment("postgres://app@h/tienda?ssl=true", {}).PGSSLMODE).toBe(
      "require",
    );
    expect(postgresClientEnvironment("postgres://app@h/tienda?host=/tmp/sockets", {}).PGHOST).toBe(
      "/tmp/sockets",
    );
  });

  it("names the database for messages without the rest of the URL", () => {
    expect(postgresDatabaseName("postgres://u:secret@h:5432/tienda")).toBe("tienda");
  });
});
