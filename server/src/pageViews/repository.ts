import type { DbOrTx } from '@tribuna/drizzle/client';
import { pageViews } from '@tribuna/drizzle/schema/index';

export type NewPageView = typeof pageViews.$inferInsert;

export async function insertPageView(db: DbOrTx, view: NewPageView): Promise<void> {
  await db.insert(pageViews).values(view);
}
