-- Plan orders (issue 33): an order that buys a subscription plan names it; NULL = a top-up order.
-- A paid plan order starts the subscription (key `order:<trade_no>`) instead of crediting quota.
ALTER TABLE `orders` ADD `plan_id` integer;
