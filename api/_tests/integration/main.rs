//! The API over real HTTP, against real services started by the tests themselves.

/// Instantiates each scenario (an `async fn(Backend)` in the invoking module) as a test for each store.
macro_rules! both_stores {
    ($($scenario:ident),* $(,)?) => {
        mod sqlite {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $scenario() { super::$scenario(crate::client::Backend::Sqlite).await } )*
        }
        mod postgrest {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $scenario() { super::$scenario(crate::client::Backend::Postgrest).await } )*
        }
    };
}

mod cards;
mod client;
mod clocks;
mod database;
mod edges;
mod faults;
mod function;
mod fuzz;
mod go_and_chess;
mod keys;
mod lobby;
mod notify;
mod presence;
mod push;
mod ratelimit;
mod seated_fuzz;
mod services;
mod suite;
mod triplex;
