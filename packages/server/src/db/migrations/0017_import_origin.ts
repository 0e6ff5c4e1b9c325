import { type Kysely, sql } from 'kysely';

/**
 * An import creates its workspace and records which export it came from (a digest of the
 * file's header), so that the same file may run again and no other file writes into it.
 * E-mails are stored in one case: an earlier import stored them as the file had them, so that
 * `Admin@Example.com` stood beside `admin@example.com`. Each is lowered now; one whose lowered
 * form another account holds loses its e-mail, as an import does when the e-mail is taken.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('imported_from', 'text').execute();
  const mixed = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'is not', null)
    .where(sql<boolean>`email <> lower(email)`)
    .orderBy('id')
    .execute();
  for (const user of mixed as { id: string; email: string }[]) {
    const lowered = user.email.toLowerCase();
    const holder = await db.selectFrom('users').select('id').where('email', '=', lowered).executeTakeFirst();
    await db
      .updateTable('users')
      .set({ email: holder ? null : lowered })
      .where('id', '=', user.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('imported_from').execute();
}
