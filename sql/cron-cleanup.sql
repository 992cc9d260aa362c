-- Tabula: delete rooms idle for more than 48 hours, daily, with pg_cron.
-- Idempotent. Needs the pg_cron extension (Supabase: Database > Extensions > pg_cron) and sql/init.sql.
-- The deployed /api/cron (Vercel cron) does the same cleanup; either one alone keeps the table small.

create extension if not exists pg_cron;

-- The cleanup scans by last activity (also created by init.sql).
create index if not exists rooms_updated_at_idx on public.rooms (updated_at);

-- cron.schedule with a job name replaces an existing job of that name.
select cron.schedule(
    'tabula-delete-idle-rooms',
    '17 3 * * *',
    $$delete from public.rooms where updated_at < now() - interval '48 hours'$$
);
