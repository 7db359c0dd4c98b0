-- docs/clobber.md, "Random fillings": views and queries over the dataset of
-- examples/clobber_random_fillings.toml. Run from the directory that holds it:
--   hammer run examples/clobber_random_fillings.toml --out rf
--   duckdb < science/notes/scripts/clobber_fillings.sql   (or each statement through Python's duckdb)
create view r as select * from read_parquet('rf/**/*.parquet', hive_partitioning = true);
create view g as
  select regexp_replace(params, ';rule=.*', '') as board, game_index,
         split_part(split_part(params, 'rule=', 2), ';', 1) as rule,
         split_part(params, 'turn=', 2) as turn, score, lower_bound, clobber_stones
  from r;
-- One line per board and game: the minimum under each rule and first colour.
create view w as
  select board, game_index,
         max(score) filter (where rule = 'impartial') as imp,
         max(score) filter (where rule = 'partisan' and turn = 'any') as p_any,
         max(score) filter (where rule = 'partisan' and turn = 'x') as p_x,
         max(score) filter (where rule = 'partisan' and turn = 'o') as p_o
  from g group by board, game_index;

-- The first colour matters; `any` is the better of `x` and `o`.
select count(*) filter (where p_x <> p_o) as colour_matters,
       count(*) filter (where p_any = least(p_x, p_o)) as any_is_the_better,
       count(*) as boards
from w;
select board, avg((p_x <> p_o)::int) as colour_matters from w group by board order by board;
-- Impartial against partisan.
select count(*) filter (where imp < p_any) as impartial_lower,
       count(*) filter (where imp > p_any) as impartial_higher,
       avg(p_any - imp) as mean_gap, max(p_any - imp) as max_gap
from w;
select split_part(split_part(board, 'fill=', 2), ';', 1)::int as fill,
       avg((imp < p_any)::int) as impartial_lower, avg(imp) as mean_impartial,
       avg(p_any) as mean_partisan_any
from w group by fill order by fill;
-- One stone left, and how often the engine's lower bound is already the answer.
select rule, turn, avg((score = 1)::int) as one_stone,
       -- Every row here is exact, so `lower_bound` is the start's own bound.
       avg((lower_bound = score)::int) as bound_tight
from g group by rule, turn order by rule, turn;
