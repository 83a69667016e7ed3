-- Only verified experts are featured (admin: Feature is refused for an unverified expert, and losing
-- the mark unfeatures). Experts featured before that rule, and unverified, are taken off the list.
UPDATE `experts` SET `is_top_expert` = 0 WHERE `is_verified` = 0 AND `is_top_expert` = 1;
