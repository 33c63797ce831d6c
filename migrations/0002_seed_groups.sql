-- Seed the user groups one-hub ships with; GroupRatio's default mirrors them.
INSERT OR IGNORE INTO `user_groups` (`symbol`, `name`, `ratio`, `api_rate`, `public`, `enable`) VALUES
  ('default', 'Default', 1, 600, 0, 1),
  ('vip', 'VIP', 1, 600, 0, 1),
  ('svip', 'SVIP', 1, 600, 0, 1);
