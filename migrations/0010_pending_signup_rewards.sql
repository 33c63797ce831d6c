-- Issue 12 (reward farming): new-user and invite rewards decided at registration wait here until the
-- new account verifies an email or tops up for the first time; then they are paid once (wallet
-- credits keyed signup-reward:/invitee-reward:/invite-reward:<user id>) and the row is removed.
-- IF NOT EXISTS: for a while this file was numbered 0012, so a local state may hold the table already.
CREATE TABLE IF NOT EXISTS `pending_signup_rewards` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`new_user` integer DEFAULT 0 NOT NULL,
	`invitee` integer DEFAULT 0 NOT NULL,
	`inviter_id` integer DEFAULT 0 NOT NULL,
	`inviter_reward` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
