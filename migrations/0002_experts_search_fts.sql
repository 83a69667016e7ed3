-- Full-text search over experts for the browse page (issue 4): name, title, bio, expertise and the
-- names of their categories. An FTS5 table whose rowid is the expert id, kept in step by triggers,
-- so a search is one indexed MATCH in D1 instead of a LIKE scan or loading experts into the Worker.
-- Deleted experts (deleted_at set) have no row. prefix='2 3' makes short prefix queries ("ma"*) cheap.
-- Note: `wrangler d1 export` cannot export virtual tables; drop and recreate this one around an export.
CREATE VIRTUAL TABLE `experts_fts` USING fts5(
	name, title, bio, expertise, categories,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
CREATE VIEW `experts_fts_source` AS
SELECT
	e.id AS id,
	coalesce(nullif(trim(u.name), ''), trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS name,
	coalesce(e.title, '') AS title,
	e.bio AS bio,
	e.expertise AS expertise,
	coalesce((
		SELECT group_concat(c.name, ' ') FROM categories c
		WHERE c.id = e.category_id
			OR c.id IN (SELECT ec.category_id FROM expert_categories ec WHERE ec.expert_id = e.id)
	), '') AS categories
FROM experts e
JOIN users u ON u.id = e.user_id
WHERE e.deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
SELECT id, name, title, bio, expertise, categories FROM `experts_fts_source`;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_insert` AFTER INSERT ON `experts` BEGIN
	INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
	SELECT id, name, title, bio, expertise, categories FROM `experts_fts_source` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_update` AFTER UPDATE OF user_id, bio, expertise, title, category_id, deleted_at ON `experts` BEGIN
	DELETE FROM `experts_fts` WHERE rowid = OLD.id;
	INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
	SELECT id, name, title, bio, expertise, categories FROM `experts_fts_source` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_delete` AFTER DELETE ON `experts` BEGIN
	DELETE FROM `experts_fts` WHERE rowid = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_user_rename` AFTER UPDATE OF name, first_name, last_name ON `users` BEGIN
	DELETE FROM `experts_fts` WHERE rowid IN (SELECT id FROM `experts` WHERE user_id = NEW.id);
	INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
	SELECT s.id, s.name, s.title, s.bio, s.expertise, s.categories FROM `experts_fts_source` s
	WHERE s.id IN (SELECT id FROM `experts` WHERE user_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_category_link` AFTER INSERT ON `expert_categories` BEGIN
	DELETE FROM `experts_fts` WHERE rowid = NEW.expert_id;
	INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
	SELECT id, name, title, bio, expertise, categories FROM `experts_fts_source` WHERE id = NEW.expert_id;
END;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_category_unlink` AFTER DELETE ON `expert_categories` BEGIN
	DELETE FROM `experts_fts` WHERE rowid = OLD.expert_id;
	INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
	SELECT id, name, title, bio, expertise, categories FROM `experts_fts_source` WHERE id = OLD.expert_id;
END;
--> statement-breakpoint
CREATE TRIGGER `experts_fts_after_category_rename` AFTER UPDATE OF name ON `categories` BEGIN
	DELETE FROM `experts_fts` WHERE rowid IN (
		SELECT id FROM `experts` WHERE category_id = NEW.id
		UNION SELECT expert_id FROM `expert_categories` WHERE category_id = NEW.id
	);
	INSERT INTO `experts_fts` (rowid, name, title, bio, expertise, categories)
	SELECT s.id, s.name, s.title, s.bio, s.expertise, s.categories FROM `experts_fts_source` s
	WHERE s.id IN (
		SELECT id FROM `experts` WHERE category_id = NEW.id
		UNION SELECT expert_id FROM `expert_categories` WHERE category_id = NEW.id
	);
END;
