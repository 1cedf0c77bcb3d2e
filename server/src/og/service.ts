import type { DbOrTx } from '@tribuna/drizzle/client';
import { effectiveStatus } from '../polls/rules.ts';
import * as polls from '../polls/repository.ts';
import { buildSharePreview, renderPreviewTags } from './presenter.ts';

/** The link-preview tags of a public poll, or null when the id is not one (drafts never leak). */
export async function sharePreviewTags(db: DbOrTx, publicUrl: string, pollId: string, now = new Date()): Promise<string | null> {
  const poll = await polls.findPublicPoll(db, pollId);
  if (!poll) return null;
  const [options, counts] = await Promise.all([
    polls.listOptions(db, [poll.id]),
    poll.showResults ? polls.countVotes(db, poll.id) : Promise.resolve([]),
  ]);
  const preview = buildSharePreview({
    pollId: poll.id,
    title: poll.title,
    closed: effectiveStatus(poll, now) === 'closed',
    showResults: poll.showResults,
    options,
    counts,
    publicUrl,
  });
  return renderPreviewTags(preview);
}
