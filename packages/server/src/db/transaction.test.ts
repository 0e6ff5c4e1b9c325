import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createTestDatabase, dialect } from '../../test/helpers.js';
import { openDatabase } from './dialect/index.js';
import type { Database } from './dialect/types.js';
import type { Tables } from './schema.js';
import { afterCommit, inTransaction } from './transaction.js';

// The seam in-process caches rely on: a callback deferred with afterCommit runs once the
// transaction has committed, and never when it does not commit, on both databases.
describe(`afterCommit (${dialect})`, () => {
  let database: Database;
  let drop: () => Promise<void>;
  let db: Kysely<Tables>;

  before(async () => {
    const test = await createTestDatabase();
    drop = test.drop;
    database = openDatabase(test.database);
    db = database.db;
    await sql`create table seam_parent (id integer primary key)`.execute(db);
    // Checked at COMMIT, not at the insert: a transaction whose body succeeds but whose commit fails.
    await sql`create table seam_child (id integer primary key, parent integer references seam_parent (id) deferrable initially deferred)`.execute(
      db,
    );
  });
  after(async () => {
    await database?.close();
    await drop?.();
  });

  const children = async () =>
    (await sql<{ id: number }>`select id from seam_child order by id`.execute(db)).rows.map((row) => Number(row.id));

  test('runs after the commit, in order, and sees what was committed', async () => {
    const seen: string[] = [];
    await inTransaction(db, async (trx) => {
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
      inTransaction(db, async (trx) => {
        await sql`insert into seam_child (id, parent) values (2, 999)`.execute(trx);
        afterCommit(trx, () => ran++);
      }),
    );
    await assert.rejects(
      inTransaction(db, async (trx) => {
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
    afterCommit(db, () => {
      ran = true;
    });
    assert.equal(ran, true);
  });
});
