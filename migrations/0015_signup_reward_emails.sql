-- Security finding 7 (reward farming by rebinding one email): the mailboxes that released sign-up
-- rewards, normalised like worker/mail/mailbox.ts (lower case, `+tag` dropped, Gmail dots dropped and
-- googlemail.com spelled gmail.com). A mailbox pays once, whatever account binds it later.
-- The addresses bound today to accounts with no rewards waiting are taken as already used (the
-- oldest account keeps each mailbox). Rerunnable: IF NOT EXISTS and INSERT OR IGNORE.
CREATE TABLE IF NOT EXISTS `signup_reward_emails` (
	`email` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT OR IGNORE INTO `signup_reward_emails` (`email`, `user_id`, `created_at`)
SELECT CASE WHEN `domain` IN ('gmail.com', 'googlemail.com') THEN replace(`local`, '.', '') || '@gmail.com' ELSE `local` || '@' || `domain` END,
	`id`, CAST(strftime('%s', 'now') AS INTEGER)
FROM (
	SELECT `id`, CASE WHEN instr(`l`, '+') > 1 THEN substr(`l`, 1, instr(`l`, '+') - 1) ELSE `l` END AS `local`, `d` AS `domain`
	FROM (
		SELECT `id`, substr(`e`, 1, instr(`e`, '@') - 1) AS `l`, substr(`e`, instr(`e`, '@') + 1) AS `d`
		FROM (SELECT `id`, lower(trim(`email`)) AS `e` FROM `users` WHERE `id` NOT IN (SELECT `user_id` FROM `pending_signup_rewards`))
		WHERE instr(`e`, '@') > 1
	)
)
ORDER BY `id`;
