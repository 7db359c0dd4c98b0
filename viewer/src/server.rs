//! The HTTP side: the embedded page, the JSON API the page calls, and the token check.
//!
//! The page is three files compiled into the binary (`assets/`), so `hammer view` needs
//! nothing on disk but the dataset. Every API answer is JSON; every refusal is a status
//! code and `{"error": "..."}` that the page shows in place, and the server goes on.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::data::{Dataset, LOADING};
use crate::error::ViewError;
use crate::game::{self, GameKey};
use crate::live::{self, CoordinatorSource};
use crate::play::{self, Position};
use crate::query::{self, Filter};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// The cookie that carries the token after the first visit with `?token=`.
const COOKIE: &str = "hammer_view_token";

pub(crate) struct App {
    pub data: Dataset,
    pub coordinator: Option<(String, CoordinatorSource)>,
    pub token: Option<String>,
    pub hint_budget: u64,
}

type Shared = Arc<App>;

pub(crate) fn router(app: Shared) -> Router {
    let api = Router::new()
        .route("/api/meta", get(meta))
        .route("/api/games", get(games))
        .route("/api/game", get(game))
        .route("/api/position", get(position))
        .route("/api/move", get(try_move))
        .route("/api/hints", get(hints))
        .route("/api/instance", get(instance))
        .route("/api/live", get(live))
        .route("/api/reload", post(reload))
        .layer(middleware::from_fn_with_state(app.clone(), check_token));
    Router::new()
        .route("/", get(page))
        .route(
            "/app.js",
            get(|| async { asset(APP_JS, "text/javascript") }),
        )
        .route("/style.css", get(|| async { asset(STYLE_CSS, "text/css") }))
        .merge(api)
        .with_state(app)
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Compares without stopping at the first difference, so timing tells nothing.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

fn presented(headers: &HeaderMap, query: Option<&str>) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(v) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        && let Some(t) = v.strip_prefix("Bearer ")
    {
        found.push(t.trim().to_owned());
    }
    for cookies in headers.get_all(header::COOKIE) {
        for pair in cookies.to_str().unwrap_or_default().split(';') {
            if let Some((k, v)) = pair.trim().split_once('=')
                && k == COOKIE
            {
                found.push(v.to_owned());
            }
        }
    }
    for pair in query.unwrap_or_default().split('&') {
        if let Some(t) = pair.strip_prefix("token=") {
            found.push(t.to_owned());
        }
    }
    found
}

fn authorized(app: &App, headers: &HeaderMap, query: Option<&str>) -> bool {
    match &app.token {
        None => true,
        Some(token) => presented(headers, query).iter().any(|t| same(t, token)),
    }
}

async fn check_token(State(app): State<Shared>, request: Request, next: Next) -> Response {
    if authorized(&app, request.headers(), request.uri().query()) {
        next.run(request).await
    } else {
        ViewError::Unauthorized.into_response()
    }
}

/// The page; with the right `?token=` it also sets the cookie the API calls carry.
async fn page(State(app): State<Shared>, request: Request) -> Response {
    if !authorized(&app, request.headers(), request.uri().query()) {
        return (
            StatusCode::UNAUTHORIZED,
            Html("<p>hammer view: wrong or missing token. Open the URL that <code>hammer view</code> printed.</p>"),
        )
            .into_response();
    }
    let mut response = Html(INDEX_HTML).into_response();
    if let Some(token) = &app.token
        && let Ok(cookie) = HeaderValue::from_str(&format!(
            "{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
        ))
    {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

async fn meta(State(app): State<Shared>) -> Json<Value> {
    let mut value = app.data.describe();
    value["coordinator"] = json!(app.coordinator.as_ref().map(|(url, _)| url));
    value["hint_budget"] = json!(app.hint_budget);
    // The registry's families: the page lists them and asks each whether it draws its
    // own board, so that no family is named in the page's code.
    value["families"] = hammer_family::families()
        .iter()
        .map(|f| json!({ "name": f.name(), "draws_board": f.page_draws_board() }))
        .collect();
    value["default_family"] = json!(hammer_family::DEFAULT_FAMILY);
    Json(value)
}

/// Runs blocking work (file reads, searches) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ViewError> + Send + 'static,
) -> Result<T, ViewError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ViewError::Hints(e.to_string()))?
}

async fn games(
    State(app): State<Shared>,
    Query(pairs): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ViewError> {
    let filter = Filter::parse(&pairs)?;
    let loaded = app.data.ready()?;
    blocking(move || {
        let started = Instant::now();
        let index = &loaded.index;
        let page = query::run(index, &filter);
        let rows: Vec<Value> = page
            .rows
            .iter()
            .map(|&i| {
                let g = &index.groups[index.group[i] as usize];
                json!({
                    "key": game::key_of(index, i),
                    "puzzle": g.puzzle,
                    "n": g.n,
                    "order": g.order,
                    "schedule": g.schedule,
                    "score": index.score[i],
                    "solvable": index.flags[i] & crate::index::SOLVABLE != 0,
                    "exhaustive": index.flags[i] & crate::index::EXHAUSTIVE != 0,
                    "expansions": index.expansions[i],
                    "wall_ns": index.wall_ns[i],
                })
            })
            .collect();
        Ok(Json(json!({
            "total": page.total,
            "page": filter.page,
            "per": filter.per,
            "rows": rows,
            "took_ms": started.elapsed().as_secs_f64() * 1e3,
        })))
    })
    .await
}

async fn game(
    State(app): State<Shared>,
    Query(pairs): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ViewError> {
    let field = |name: &'static str| {
        pairs.get(name).cloned().ok_or(ViewError::BadQuery {
            field: name,
            value: String::new(),
            expected: "a value (a game's link carries sweep, experiment, config, params, index)"
                .into(),
        })
    };
    let index_text = field("index")?;
    let key = GameKey {
        sweep: field("sweep")?,
        experiment: field("experiment")?,
        config: field("config")?,
        params: field("params")?,
        index: index_text.parse().map_err(|_| ViewError::BadQuery {
            field: "index",
            value: index_text.clone(),
            expected: "a whole number".into(),
        })?,
    };
    let loaded = app.data.ready()?;
    blocking(move || {
        let i = game::find(&loaded.index, &key)?;
        let row = game::read_row(&loaded.index, i)?;
        Ok(Json(game::game_json(&row)))
    })
    .await
}

async fn position(Query(p): Query<Position>) -> Result<Json<Value>, ViewError> {
    blocking(move || Ok(Json(json!(play::position(&p)?)))).await
}

async fn try_move(Query(p): Query<Position>) -> Result<Json<Value>, ViewError> {
    blocking(move || Ok(Json(json!({ "after": play::try_move(&p)? })))).await
}

async fn hints(
    State(app): State<Shared>,
    Query(p): Query<Position>,
) -> Result<Json<Value>, ViewError> {
    let budget = app.hint_budget;
    blocking(move || {
        let started = Instant::now();
        let hints = play::hints(&p, budget)?;
        Ok(Json(json!({
            "hints": hints,
            "budget": budget,
            "took_ms": started.elapsed().as_secs_f64() * 1e3,
        })))
    })
    .await
}

/// A seeded game's start: `puzzle`, `params`, `seed` and `index`.
async fn instance(Query(pairs): Query<HashMap<String, String>>) -> Result<Json<Value>, ViewError> {
    let text = |k: &str| {
        pairs
            .get(k)
            .map(|v| v.trim().to_owned())
            .unwrap_or_default()
    };
    let number = |field: &'static str| -> Result<u64, ViewError> {
        let value = text(field);
        value.parse().map_err(|_| ViewError::BadQuery {
            field,
            value,
            expected: "a whole number from 0".into(),
        })
    };
    let puzzle = match text("puzzle") {
        p if p.is_empty() => hammer_family::DEFAULT_FAMILY.to_owned(),
        p => p,
    };
    let (seed, index) = (number("seed")?, number("index")?);
    let params = text("params");
    blocking(move || {
        let state = play::instance(&puzzle, &params, seed, index)?;
        Ok(Json(
            json!({ "puzzle": puzzle, "params": params, "state": state }),
        ))
    })
    .await
}

/// The coordinator's queue and one sweep's status; `?sweep=NAME` picks the sweep.
async fn live(
    State(app): State<Shared>,
    Query(params): Query<HashMap<String, String>>,
) -> Json<Value> {
    match &app.coordinator {
        None => Json(json!({
            "ok": false,
            "enabled": false,
            "error": "no coordinator: start `hammer view --coordinator URL` to watch a sweep",
        })),
        Some((url, source)) => {
            let wanted = params
                .get("sweep")
                .map(String::as_str)
                .filter(|s| !s.is_empty());
            let mut value = live::poll(source, url, wanted).await;
            value["enabled"] = json!(true);
            Json(value)
        }
    }
}

async fn reload(State(app): State<Shared>) -> Json<Value> {
    app.data.start_loading();
    Json(json!({ "state": LOADING }))
}
