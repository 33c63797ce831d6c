-- Redemption codes that carry a subscription plan (issue 33): a code with a plan_id grants that
-- plan (once, under `redemption:<code id>`) instead of adding quota. 0: a quota code, as before.
ALTER TABLE `redemptions` ADD `plan_id` integer DEFAULT 0 NOT NULL;
