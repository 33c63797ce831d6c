-- Tasks covered by subscription plans (issue 33): what a task's submit drew from, so that a task
-- that fails later gives it back to the same place. '' = the balance; else JSON of TaskPlanCharge
-- (worker/tasks/task-charge.ts): the subscription, its model item, the time zone its windows roll
-- in and the second its consume row was written (which fixes the windows it counted in).
ALTER TABLE `midjourneys` ADD `plan_charge` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `tasks` ADD `plan_charge` text DEFAULT '' NOT NULL;
