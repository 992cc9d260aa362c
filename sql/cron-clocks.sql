-- Tabula: every minute, end the games whose time ran out and remind correspondence players whose
-- time runs short (Web Push), even when nobody opens their rooms: pg_cron calls the deployed
-- /api/cron?task=clocks through pg_net. (Vercel's own cron, in vercel.json, runs at most daily on
-- its free plan; a request, a move or a poll also ends a game the moment it sees its time run out.)
--
-- Needs sql/init.sql, and the pg_cron and pg_net extensions (Supabase: Database > Extensions).
-- Run with psql, naming the site and the deployment's CRON_SECRET:
--   psql "$DATABASE_URL" -v site_url=https://your-site.vercel.app -v cron_secret="$CRON_SECRET" -f sql/cron-clocks.sql
-- (In Supabase's SQL editor, first replace :'site_url' and :'cron_secret' below by quoted values.)
-- Idempotent. The secret is kept in the job's command, which only the database's owner reads.

create extension if not exists pg_cron;
do $$
begin
    if not exists (select from pg_extension where extname = 'pg_net')
       and exists (select from pg_available_extensions where name = 'pg_net') then
        create extension pg_net;
    end if;
end
$$;

-- cron.schedule with a job name replaces an existing job of that name.
select cron.schedule(
    'tabula-clocks',
    '* * * * *',
    format(
        $job$select net.http_get(url := %L, headers := jsonb_build_object('Authorization', %L), timeout_milliseconds := 30000)$job$,
        rtrim(:'site_url', '/') || '/api/cron?task=clocks',
        'Bearer ' || :'cron_secret'
    )
);
