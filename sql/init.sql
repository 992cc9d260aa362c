-- Tabula: the database behind /api/game and /api/triplex on Supabase (PostgreSQL behind PostgREST).
-- Idempotent: run it again after every update (Supabase: SQL editor, or psql -v ON_ERROR_STOP=1 -f).
--
-- Only the API functions, with the secret (service_role) key, read or write rooms and Triplex solves. Row level security
-- is on with no policy, and the anon/authenticated roles hold no privileges: the public key can
-- neither read seat token hashes nor write anything.

begin;

create table if not exists public.rooms (
    room_id          text primary key check (room_id ~ '^[A-Za-z0-9_-]{1,20}$'),
    game             text not null check (game ~ '^[a-z][a-z0-9_]{0,31}$'),
    config           jsonb not null default '{}'::jsonb check (jsonb_typeof(config) = 'object'),
    -- The current game's moves; the state is always rebuilt from them by the rule engine.
    moves            jsonb not null default '[]'::jsonb check (jsonb_typeof(moves) = 'array'),
    -- +1 for every change; writes are compare-and-swap on it (PATCH ...?version=eq.N).
    version          bigint not null default 0 check (version >= 0),
    game_number      bigint not null default 0 check (game_number >= 0),
    resigned         smallint check (resigned in (1, 2)),
    seat1_name       text check (char_length(seat1_name) <= 24),
    seat1_token_hash text check (seat1_token_hash ~ '^[0-9a-f]{64}$'),
    seat2_name       text check (char_length(seat2_name) <= 24),
    seat2_token_hash text check (seat2_token_hash ~ '^[0-9a-f]{64}$'),
    created_at       timestamptz not null default now(),
    updated_at       timestamptz not null default now()
);

-- Added after the first release (so also for tables created before it): the seat that asked to take
-- back the last two moves, until the other seat answers or someone plays.
alter table public.rooms add column if not exists takeback smallint check (takeback in (1, 2));
-- Whether takebacks are refused, asked for, or granted at once; chosen when the room is created
-- (NULL, in rooms from before, is 'ask').
alter table public.rooms add column if not exists takeback_policy text
    check (takeback_policy in ('never', 'ask', 'always'));
-- A game ended because a player left: the colour that left, and whether the other called it a draw.
alter table public.rooms add column if not exists abandoned smallint check (abandoned in (1, 2));
alter table public.rooms add column if not exists abandon_draw boolean not null default false;
-- When each seat's player last polled; written apart from moves, without a version change.
alter table public.rooms add column if not exists seat1_seen_at timestamptz;
alter table public.rooms add column if not exists seat2_seen_at timestamptz;
-- The room's time control and the current game's clocks (`api/_lib/clock.rs`); NULL: none.
alter table public.rooms add column if not exists clock jsonb check (clock is null or jsonb_typeof(clock) = 'object');

-- Listed in the lobby (GET /api/lobby); rooms are private, link only, unless created public.
alter table public.rooms add column if not exists public boolean not null default false;
-- How many pages have the room open, as a seated player's page counts them in Realtime's presence
-- (the functions hold no connections to count them): less the seated players, its watchers.
-- Written with seat<n>_seen_at.
alter table public.rooms add column if not exists open_pages integer check (open_pages >= 0);
-- The room as pages see it at this version, {"view": ..., "etag": ...}, written by the API with
-- each version where pages listen on Supabase Realtime: the broadcast below carries it, so a page
-- shows a move without fetching the room. The broadcast's trigger stores NULL instead (where
-- Realtime is); never read by the API.
alter table public.rooms add column if not exists pushed_view jsonb;
-- When each seat's page last polled while visible (its player looking at the room, so no Web Push
-- notification then); written with seat<n>_seen_at.
alter table public.rooms add column if not exists seat1_looked_at timestamptz;
alter table public.rooms add column if not exists seat2_looked_at timestamptz;

-- The idle-room cleanup scans by last activity.
create index if not exists rooms_updated_at_idx on public.rooms (updated_at);
-- The cron's pass over clocks reads the games whose clock has not ended.
create index if not exists rooms_clocked_idx on public.rooms (updated_at)
    where clock is not null and clock ->> 'ended' is null;
-- The lobby reads the public rooms, newest first.
create index if not exists rooms_public_idx on public.rooms (created_at desc) where public;

alter table public.rooms enable row level security;

-- Web Push subscriptions ("notify me when it is my move", api/_lib/notify/): a browser's push
-- address and keys for one seat of one room, kept by the seat token's hash (so they lapse when the
-- seat changes hands) and deleted with their room.
create table if not exists public.push_subscriptions (
    room_id    text not null references public.rooms (room_id) on delete cascade,
    endpoint   text not null check (char_length(endpoint) <= 2048),
    seat       smallint not null check (seat in (1, 2)),
    token_hash text not null check (token_hash ~ '^[0-9a-f]{64}$'),
    p256dh     text not null check (char_length(p256dh) <= 200),
    auth       text not null check (char_length(auth) <= 100),
    created_at timestamptz not null default now(),
    -- The last reminder sent to it (a correspondence game's 24 hours or 1 hour left), sent once.
    reminded   text check (char_length(reminded) <= 100),
    primary key (room_id, endpoint)
);
-- Where the notices go: the browser's push service, or a Discord or Slack incoming webhook.
alter table public.push_subscriptions add column if not exists kind text not null default 'web-push'
    check (kind in ('web-push', 'discord', 'slack'));
alter table public.push_subscriptions enable row level security;

-- Triplex records: one row per accepted solve (the API checks the solution with the rule engine
-- before it writes). Kept when rooms are cleaned up.
create table if not exists public.triplex_solves (
    id        bigint generated always as identity primary key,
    level     integer not null check (level >= 1),
    name      text not null check (char_length(name) between 1 and 24),
    ms        bigint not null check (ms > 0),
    solved_at timestamptz not null default now()
);
create index if not exists triplex_solves_level_idx on public.triplex_solves (level, id);
alter table public.triplex_solves enable row level security;

-- Each level's records, computed where the solves are (a PostgREST answer is capped at 1,000 rows):
-- every solve counted, each name once with its best time, the lower middle of those as the median,
-- and the first solve.
create or replace view public.triplex_records with (security_invoker = true) as
with best as (
    select level, name, min(ms) as ms from public.triplex_solves group by level, name
), first as (
    select distinct on (level) level, name, ms, solved_at from public.triplex_solves order by level, id
)
select best.level,
       (select count(*) from public.triplex_solves s where s.level = best.level) as solves,
       count(*) as solvers,
       min(best.ms) as best_ms,
       percentile_disc(0.5) within group (order by best.ms) as median_ms,
       first.name as first_name,
       first.ms as first_ms,
       first.solved_at as first_at
from best join first on first.level = best.level
group by best.level, first.name, first.ms, first.solved_at;

-- Supabase grants every new table to anon and authenticated by default; take that back.
do $$
declare
    client_role text;
begin
    foreach client_role in array array['anon', 'authenticated'] loop
        if exists (select from pg_roles where rolname = client_role) then
            execute format('revoke all on table public.rooms from %I', client_role);
            execute format('revoke all on table public.triplex_solves from %I', client_role);
            execute format('revoke all on table public.push_subscriptions from %I', client_role);
            execute format('revoke all on table public.triplex_records from %I', client_role);
        end if;
    end loop;
    if exists (select from pg_roles where rolname = 'service_role') then
        grant select, insert, update, delete on table public.rooms to service_role;
        grant select, insert on table public.triplex_solves to service_role;
        grant select, insert, update, delete on table public.push_subscriptions to service_role;
        grant select on table public.triplex_records to service_role;
    end if;
end
$$;

-- The original public version kept boards in public.games (room_id, board, territory, current_player,
-- winner, last_move_pos, updated_at), writable by anyone holding the anon key. Its rooms have no move
-- list, so they cannot be replayed into rooms; keep the rows, and close the table to clients.
do $$
declare
    policy record;
    client_role text;
begin
    if to_regclass('public.games') is null then
        return;
    end if;
    alter table public.games enable row level security;
    for policy in select policyname from pg_policies where schemaname = 'public' and tablename = 'games' loop
        execute format('drop policy %I on public.games', policy.policyname);
    end loop;
    foreach client_role in array array['anon', 'authenticated'] loop
        if exists (select from pg_roles where rolname = client_role) then
            execute format('revoke all on table public.games from %I', client_role);
        end if;
    end loop;
    comment on table public.games is 'Superseded by public.rooms (Tabula); closed to clients, kept for reference.';
end
$$;

-- Push (live rooms): every new version of a room is broadcast on Supabase Realtime, on the public
-- topic 'room:<room_id>', event 'room', with the room id and the version, and the room's view and
-- ETag when the API wrote them for this version (and they fit well within a broadcast's 256 KB);
-- pages show that view, or fetch the room through the API. (Clients cannot read the table, so
-- Postgres Changes cannot reach them; a broadcast from the database can.) A failed broadcast never
-- fails the write: the move stands and pages still poll. Created only where Realtime is (every
-- Supabase project).
create or replace function public.tabula_announce_room() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
    if tg_op = 'INSERT' or new.version is distinct from old.version then
        begin
            perform realtime.send(
                jsonb_build_object('roomId', new.room_id, 'version', new.version) || case
                    when (new.pushed_view -> 'view' ->> 'version')::bigint = new.version
                        and octet_length(new.pushed_view::text) <= 200000
                    then jsonb_build_object('view', new.pushed_view -> 'view', 'etag', new.pushed_view -> 'etag')
                    else '{}'::jsonb
                end,
                'room',
                'room:' || new.room_id,
                false
            );
        exception when others then
            raise warning 'room % version % not broadcast: %', new.room_id, new.version, sqlerrm;
        end;
    end if;
    -- Broadcast, not stored: every read of the room (`select=*`) would carry it again.
    new.pushed_view := null;
    return new;
end
$$;

do $$
begin
    drop trigger if exists rooms_announce on public.rooms;
    if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is not null then
        -- Before the write, so that it can leave the view out of the stored row; the broadcast is
        -- part of the same transaction either way.
        create trigger rooms_announce before insert or update of version on public.rooms
            for each row execute function public.tabula_announce_room();
    end if;
end
$$;

-- The API calls no SQL function (the trigger's runs as the table's writes); none in this schema is
-- callable by clients.
do $$
declare
    client_role text;
begin
    revoke execute on all functions in schema public from public;
    alter default privileges in schema public revoke execute on functions from public;
    foreach client_role in array array['anon', 'authenticated'] loop
        if exists (select from pg_roles where rolname = client_role) then
            execute format('revoke execute on all functions in schema public from %I', client_role);
            execute format('alter default privileges in schema public revoke execute on functions from %I', client_role);
        end if;
    end loop;
end
$$;

commit;

-- PostgREST caches the schema: have it see columns added above.
notify pgrst, 'reload schema';
