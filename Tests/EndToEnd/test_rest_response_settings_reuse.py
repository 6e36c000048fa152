"""`response.status` and `response.headers` that a function set on one request do not reach the
next requests served by the same Postgres connection.

Postgres keeps a custom setting, once made on a connection, as '' after its transaction: the
requests after it read `current_setting('response.headers', true)` as '' where a fresh connection
reads null. PostgREST reads both as unset (`nullif(…, '')`); the gateway reads the settings
without `nullif` and does the same in Swift (`ResultRow.setting`). Every kind of answer that reads
them is asked on the connection that served the function: a read answered from its columns, one
Postgres writes (`Prefer: count=exact`), a streamed read (more rows than a batch), an insert with
`return=representation`, and a function call.
"""
import time
import uuid

import httpx


def test_a_functions_response_settings_do_not_reach_the_next_requests(start_extra_project):
    # Reads of more than a batch (1,000 rows) are streamed where the row cap allows them.
    project = start_extra_project("response-settings-reuse")
    name = f"rs_{uuid.uuid4().hex[:8]}"
    project.sql(f"""
        create table public.{name} (id int primary key, note text);
        insert into public.{name} select g, 'n' || g from generate_series(1, 1500) g;
        create view public.{name}_pid as select pg_backend_pid() as pid, id from public.{name};
        create function public.{name}_sets() returns int language sql as $$
          select pg_backend_pid() + 0 * length(set_config('response.status', '202', true))
            + 0 * length(set_config('response.headers', '[{{"X-Set-By": "function"}}]', true))
        $$;
        create function public.{name}_plain() returns int language sql as 'select 1';
        grant all on public.{name}, public.{name}_pid to service_role;
        grant execute on function public.{name}_sets(), public.{name}_plain() to service_role;
        alter role authenticator set pgrst.db_max_rows = '5000';
        notify pgrst, 'reload config'""")
    headers = project.headers(project.service_role_key)
    with httpx.Client(base_url=project.rest_url, headers=headers, timeout=60) as client:
        deadline = time.monotonic() + 60
        while len(client.get(f"/{name}?select=id").json()) < 1500:  # the reload applied
            assert time.monotonic() < deadline, "the row cap of 5000 never applied"
            time.sleep(0.1)
        answer = client.post(f"/rpc/{name}_sets", json={})
        assert answer.status_code == 202, answer.text
        assert answer.headers.get("x-set-by") == "function"
        setter = answer.json()
        served = []
        for _ in range(5):
            answer = client.get(f"/{name}_pid?select=pid,id&id=eq.7")
            assert answer.status_code == 200, answer.text
            assert "x-set-by" not in answer.headers
            served.append(answer.json()[0]["pid"])
            asked = [
                client.get(f"/{name}?select=id&id=lt.3", headers={"Prefer": "count=exact"}),
                client.get(f"/{name}?select=id,note&id=lt.10000"),
                client.post(f"/rpc/{name}_plain", json={}),
            ]
            for answer in asked:
                assert answer.status_code == 200, answer.text
                assert "x-set-by" not in answer.headers
            assert len(asked[1].json()) == 1500
            row = {"id": 10_000 + len(served), "note": "new"}
            answer = client.post(f"/{name}", json=row, headers={"Prefer": "return=representation"})
            assert answer.status_code == 201, answer.text
            assert answer.json() == [row]
            assert "x-set-by" not in answer.headers
        # The function's connection served later requests (else this test proves nothing).
        assert setter in served, (setter, served)
