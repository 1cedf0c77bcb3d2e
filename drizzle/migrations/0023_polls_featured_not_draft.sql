-- Featuring a draft was allowed before the home page showed the featured poll whatever its status;
-- such a flag never put the draft on the home page, so it is dropped rather than made public.
UPDATE "polls" SET "is_featured" = false WHERE "is_featured" AND "status" = 'draft';--> statement-breakpoint
ALTER TABLE "polls" ADD CONSTRAINT "polls_featured_not_draft" CHECK (NOT ("polls"."is_featured" AND "polls"."status" = 'draft'));
