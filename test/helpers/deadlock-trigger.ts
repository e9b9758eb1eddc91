/**
 * A trigger that makes the database raise its own deadlock error (PostgreSQL 40P01, MySQL/MariaDB
 * errno 1213) on UPDATEs of a table, for the deadlock paths the tests cannot provoke on demand.
 * A sequence, which no rollback undoes, counts the attempts the trigger saw.
 */
import type { Database } from '../../framework';

export interface DeadlockTrigger {
  /** UPDATEs the trigger has seen that matched its condition. */
  attempts(): Promise<number>;
  drop(): Promise<void>;
}

/**
 * Installs the trigger on `table`: an UPDATE whose new row matches `condition` (SQL over `NEW`,
 * written by the test) fails while the attempts counted so far are at most `failures`
 * (Infinity: every time). PostgreSQL and MySQL/MariaDB only.
 */
export async function deadlockTrigger(db: Database, table: string, condition: string, failures = Infinity): Promise<DeadlockTrigger> {
  const name = `netinv_test_deadlock_${table}`;
  const postgres = db.dialect.name === 'postgres';
  const limit = Number.isFinite(failures) ? String(failures) : '2147483647';
  const create = postgres
    ? [
      `CREATE SEQUENCE ${name}_attempts`,
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         -- Nested, so that only matching rows are counted.
         IF (${condition}) THEN
           IF nextval('${name}_attempts') <= ${limit} THEN
             RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01';
           END IF;
         END IF;
         RETURN NEW;
       END $$`,
      `CREATE TRIGGER ${name} BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    ]
    : [
      `CREATE SEQUENCE ${name}_attempts`,
      `CREATE TRIGGER ${name} BEFORE UPDATE ON ${table} FOR EACH ROW
       BEGIN
         IF (${condition}) THEN
           IF NEXTVAL(${name}_attempts) <= ${limit} THEN
             SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'Deadlock found when trying to get lock';
           END IF;
         END IF;
       END`,
    ];
  const drop = postgres
    ? [`DROP TRIGGER ${name} ON ${table}`, `DROP FUNCTION ${name}()`, `DROP SEQUENCE ${name}_attempts`]
    : [`DROP TRIGGER ${name}`, `DROP SEQUENCE ${name}_attempts`];
  for (const sql of create) await db.reader.run(sql);
  return {
    async attempts() {
      // MariaDB's sequence is read by taking its next value, which counts one more.
      const sql = postgres ? `SELECT last_value FROM ${name}_attempts` : `SELECT NEXTVAL(${name}_attempts) - 1`;
      return Number((await db.reader.rows(sql))[0][0]);
    },
    async drop() {
      for (const sql of drop) await db.reader.run(sql);
    },
  };
}
