-- What a Supabase project has before our scripts run: the API roles, and default privileges that
-- grant every new table and function to them (so our RLS and revokes are what protect the data).
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;

-- Supabase Realtime's `realtime.send`, which cannot run here: a stand-in that records each call
-- (the trigger in sql/init.sql broadcasts room changes through it). A topic of a room whose id
-- starts with `fail-` fails, as a Realtime outage would.
create schema realtime;
create table realtime.sent (
    id      bigserial primary key,
    payload jsonb not null,
    event   text not null,
    topic   text not null,
    private boolean not null
);
create function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void language plpgsql as $$
begin
    if topic like 'room:fail-%' then
        raise exception 'Realtime is unavailable';
    end if;
    insert into realtime.sent (payload, event, topic, private) values (payload, event, topic, private);
end
$$;
