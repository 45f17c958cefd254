-- A finished game's review as its table pushed it (club/reviews.py checked it): the graded
-- decisions and each seat's accuracy. NULL when the table sent none.
ALTER TABLE games ADD COLUMN review JSONB;
