import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createTestDatabase, dialect } from '../../test/helpers.js';
import { openDatabase } from './dialect/index.js';
import type { Database } from './dialect/types.js';
import type { Tables } from './schema.js';
import { afterCommit, inTransaction, readThenWrite, writeBeforeCommit } from './transaction.js';

/**
 * A database of its own for the tests of one `describe`: opened before them with `setup` run
 * on it, closed and dropped after them.
 */
function scratchDatabase(setup: (db: Kysely<Tables>) => Promise<void>) {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  before(async () => {
    const test = await createTestDatabase();
    drop = test.drop;
    database = openDatabase(test.database);
    await setup(database.db);
  });
  after(async () => {
    await database?.close();
    await drop?.();
  });
  return {
    get database(): Database {
      if (!database) throw new Error('the database opens before the tests');
      return database;
    },
    get db(): Kysely<Tables> {
      return this.database.db;
    },
  };
}

// The seam in-process caches rely on: a callback deferred with afterCommit runs once the
// transaction has committed, and never when it does not commit, on both databases.
describe(`afterCommit (${dialect})`, () => {
  const scratch = scratchDatabase(async (db) => {
    await sql`create table seam_parent (id integer primary key)`.execute(db);
    // Checked at COMMIT, not at the insert: a transaction whose body succeeds but whose commit fails.
    await sql`create table seam_child (id integer primary key, parent integer references seam_parent (id) deferrable initially deferred)`.execute(
      db,
    );
  });

  const children = async () =>
    (await sql<{ id: number }>`select id from seam_child order by id`.execute(scratch.db)).rows.map((row) =>
      Number(row.id),
    );

  test('runs after the commit, in order, and sees what was committed', async () => {
    const seen: string[] = [];
    await inTransaction(scratch.db, async (trx) => {
      await sql`insert into seam_parent (id) values (1)`.execute(trx);
      await sql`insert into seam_child (id, parent) values (1, 1)`.execute(trx);
      afterCommit(trx, () => seen.push('first'));
      afterCommit(trx, () => seen.push('second'));
      await sql`select 1`.execute(trx);
      assert.deepEqual(seen, [], 'nothing runs while the transaction is open');
    });
    assert.deepEqual(seen, ['first', 'second']);
    assert.deepEqual(await children(), [1]);
  });

  test('never runs when the commit itself fails (a deferred constraint), nor when the body throws', async () => {
    let ran = 0;
    await assert.rejects(
      inTransaction(scratch.db, async (trx) => {
        await sql`insert into seam_child (id, parent) values (2, 999)`.execute(trx);
        afterCommit(trx, () => ran++);
      }),
    );
    await assert.rejects(
      inTransaction(scratch.db, async (trx) => {
        afterCommit(trx, () => ran++);
        throw new Error('the body fails');
      }),
      /the body fails/,
    );
    assert.equal(ran, 0);
    assert.deepEqual(await children(), [1], 'both rolled back');
  });

  test('outside a transaction it runs at once', () => {
    let ran = false;
    afterCommit(scratch.db, () => {
      ran = true;
    });
    assert.equal(ran, true);
  });
});

// Writes nothing reads back may go with a transaction's last statement (PostgreSQL, where each
// statement is a round trip): they commit or roll back with it like any other write.
describe(`writeBeforeCommit (${dialect})`, () => {
  const scratch = scratchDatabase(async (db) => {
    await sql`create table late_parent (id integer primary key, note text)`.execute(db);
    await sql`create table late_child (id integer primary key, parent integer not null references late_parent (id), note text)`.execute(
      db,
    );
  });

  const notes = async (table: string) =>
    (await sql<{ note: string }>`select note from ${sql.table(table)} order by id`.execute(scratch.db)).rows.map(
      (r) => r.note,
    );

  test('held writes commit with the transaction, parameters and quoted text intact, announcements too', async () => {
    const heard: string[] = [];
    scratch.database.changes.subscribe((change) => {
      if (change !== 'reset' && change.kind === 'comments' && change.key === 'late') heard.push(change.key);
    });
    let seenInside = -1;
    let heardInside = -1;
    await inTransaction(scratch.db, async (trx) => {
      await sql`insert into late_parent (id, note) values (${1}, ${'first'})`.execute(trx);
      // Tables made by the test are not in the schema's types.
      const t = trx as unknown as Kysely<any>;
      await writeBeforeCommit(trx, t.insertInto('late_child').values({ id: 1, parent: 1, note: "a 'quoted' $1 note" }));
      // A literal with a placeholder's spelling in the statement's own text stays as written.
      await writeBeforeCommit(trx, {
        compile: () => sql`insert into late_child (id, parent, note) values (${2}, ${1}, '$1 and $2')`.compile(trx),
        execute: () => sql`insert into late_child (id, parent, note) values (${2}, ${1}, '$1 and $2')`.execute(trx),
      });
      await writeBeforeCommit(trx, t.updateTable('late_parent').set({ note: 'changed' }).where('id', '=', 1));
      await scratch.database.changes.publish(trx, { kind: 'comments', key: 'late' });
      heardInside = heard.length;
      seenInside = Number(
        (await sql<{ n: number }>`select count(*) as n from late_child`.execute(trx)).rows[0]?.n ?? -1,
      );
    });
    // PostgreSQL holds them until the last statement; SQLite, one process, writes at once.
    assert.equal(seenInside, dialect === 'postgres' ? 0 : 2);
    assert.deepEqual(await notes('late_child'), ["a 'quoted' $1 note", '$1 and $2']);
    assert.deepEqual(await notes('late_parent'), ['changed']);
    assert.equal(heardInside, 0, 'nothing is announced before the commit');
    assert.ok(heard.includes('late'), 'the announcement was made at the commit');
  });

  test('a held write that fails fails the transaction: nothing of it is written, nothing runs after it', async () => {
    let ran = 0;
    await assert.rejects(
      inTransaction(scratch.db, async (trx) => {
        await sql`insert into late_parent (id, note) values (${2}, ${'second'})`.execute(trx);
        const t = trx as unknown as Kysely<any>;
        await writeBeforeCommit(trx, t.insertInto('late_child').values({ id: 3, parent: 999, note: 'orphan' }));
        afterCommit(trx, () => ran++);
      }),
    );
    assert.equal(ran, 0);
    assert.deepEqual(await notes('late_parent'), ['changed'], 'the parent written before it rolled back too');
    assert.equal((await notes('late_child')).length, 2);
  });

  test('outside a transaction it writes at once', async () => {
    await writeBeforeCommit(
      scratch.db,
      (scratch.db as unknown as Kysely<any>).insertInto('late_parent').values({ id: 4, note: 'now' }),
    );
    assert.deepEqual(await notes('late_parent'), ['changed', 'now']);
  });
});

// A read, then writes nothing reads back (a reply): on PostgreSQL one statement with no
// transaction around it, all of it or nothing; elsewhere a transaction.
describe(`readThenWrite (${dialect})`, () => {
  const scratch = scratchDatabase(async (db) => {
    await sql`create table rw_parent (id integer primary key, replies integer not null)`.execute(db);
    await sql`create table rw_child (id integer primary key, parent integer not null references rw_parent (id))`.execute(
      db,
    );
    await sql`insert into rw_parent (id, replies) values (1, 0)`.execute(db);
  });
  const replies = async () =>
    Number((await sql<{ n: number }>`select replies as n from rw_parent where id = 1`.execute(scratch.db)).rows[0]?.n);
  const children = async () =>
    (await sql<{ id: number }>`select id from rw_child order by id`.execute(scratch.db)).rows.map((r) => Number(r.id));

  test('its writes and announcements land together, after its reads', async () => {
    const heard: string[] = [];
    scratch.database.changes.subscribe((change) => {
      if (change !== 'reset' && change.kind === 'comments' && change.key === 'rw') heard.push(change.key);
    });
    const seen: string[] = [];
    const value = await readThenWrite(scratch.db, async (db) => {
      const t = db as unknown as Kysely<any>;
      const parent = await t.selectFrom('rw_parent').select('id').where('id', '=', 1).executeTakeFirstOrThrow();
      await writeBeforeCommit(db, t.insertInto('rw_child').values({ id: 1, parent: parent.id }));
      await writeBeforeCommit(
        db,
        t
          .updateTable('rw_parent')
          .set((eb) => ({ replies: eb('replies', '+', 1) }))
          .where('id', '=', 1),
      );
      await scratch.database.changes.publish(db, { kind: 'comments', key: 'rw' });
      // Heard once, or twice when this process's own NOTIFY came back before the callbacks ran.
      afterCommit(db, () => seen.push(`after: ${heard.length > 0 ? 'heard' : 'not heard'}`));
      seen.push(
        `inside: ${(await t.selectFrom('rw_child').select('id').execute()).length} written, ${heard.length} heard`,
      );
      return 'done';
    });
    assert.equal(value, 'done');
    // PostgreSQL sends the writes at the end; SQLite's transaction writes them at once.
    assert.deepEqual(seen, [`inside: ${dialect === 'postgres' ? 0 : 1} written, 0 heard`, 'after: heard']);
    assert.deepEqual(await children(), [1]);
    assert.equal(await replies(), 1);
  });

  test('a write that fails writes nothing of the others, and nothing runs after it', async () => {
    let ran = 0;
    await assert.rejects(
      readThenWrite(scratch.db, async (db) => {
        const t = db as unknown as Kysely<any>;
        await writeBeforeCommit(
          db,
          t
            .updateTable('rw_parent')
            .set((eb) => ({ replies: eb('replies', '+', 1) }))
            .where('id', '=', 1),
        );
        await writeBeforeCommit(db, t.insertInto('rw_child').values({ id: 2, parent: 999 }));
        afterCommit(db, () => ran++);
      }),
    );
    assert.equal(ran, 0);
    assert.equal(await replies(), 1, "the count's update went with the failing insert");
    assert.deepEqual(await children(), [1]);
  });

  test('on PostgreSQL, a write not held for the end is refused before it runs', {
    skip: dialect !== 'postgres',
  }, async () => {
    await assert.rejects(
      readThenWrite(scratch.db, async (db) => {
        await sql`insert into rw_child (id, parent) values (3, 1)`.execute(db);
      }),
      /readThenWrite: a RawNode outside writeBeforeCommit/,
    );
    assert.deepEqual(await children(), [1]);
  });
});

// PostgreSQL's connections prepare the statements they run: one whose columns a migration
// changed since (a newer server migrated while this one runs) still answers.
describe(`prepared statements (${dialect})`, { skip: dialect !== 'postgres' }, () => {
  const scratch = scratchDatabase(async (db) => {
    await sql`create table shapes (id integer primary key, name text)`.execute(db);
    await sql`insert into shapes (id, name) values (1, 'circle')`.execute(db);
  });

  test('a prepared select * answers with the new columns after the table changed', async () => {
    const read = () =>
      scratch.db
        .connection()
        .execute(async (conn) => (await sql`select * from shapes where id = ${1}`.execute(conn)).rows);
    // Every connection of the pool runs it several times: prepared, then planned once for all.
    for (let i = 0; i < 12; i++) assert.deepEqual(await read(), [{ id: 1, name: 'circle' }]);
    await sql`alter table shapes add column sides integer not null default 0`.execute(scratch.db);
    for (let i = 0; i < 12; i++) assert.deepEqual(await read(), [{ id: 1, name: 'circle', sides: 0 }]);
  });
});
