-- Issue 39 item 4 (what operators reconcile): an order's fee in the currency the user paid in, beside
-- `fee` (USD cents). With `order_amount` and `discount` (already in that currency) it gives the
-- three amounts a gateway statement shows. New orders fill it (payments.service.ts createOrder).
-- Orders placed in USD before this migration get it from `fee`; older orders in another currency
-- keep NULL: the exchange rate they used was not stored, so the console shows their USD fee instead.
ALTER TABLE `orders` ADD `order_fee` integer;
--> statement-breakpoint
UPDATE `orders` SET `order_fee` = `fee` WHERE `order_currency` = 'USD';
