"""Schemathesis hooks of the OpenAPI fuzz run (tests/fuzz/openapi-fuzz.test.ts).

The fuzzer holds every role, so it may PATCH any account and block or delete any document. Some must
survive the run: its own account (roles [] or active false, or an erasure, would lock it out), the bootstrap account
(out of its reach), the assignee of the fixture tasks, and the fixture documents other operations
read. A request that would change one of them is sent to an id that names nothing instead, before it
leaves. The ids come from the environment, comma-separated.
"""

import os

import schemathesis


def _ids(name):
    return frozenset(filter(None, os.environ.get(name, "").split(",")))


# (method, path template) -> (path parameter, the ids it must not name, the id sent instead)
PROTECTED = {
    ("PATCH", "/api/admin/v1/accounts/{id}"): (
        "id",
        _ids("DOCFLOW_FUZZ_PROTECTED_ACCOUNTS"),
        "usr-ffffffff-ffff-ffff-ffff-ffffffffffff",
    ),
    # Erasure deactivates for good: the same accounts as PATCH.
    ("POST", "/api/admin/v1/accounts/{id}/erase"): (
        "id",
        _ids("DOCFLOW_FUZZ_PROTECTED_ACCOUNTS"),
        "usr-ffffffff-ffff-ffff-ffff-ffffffffffff",
    ),
    ("POST", "/api/v2/docForm/{id}/docResponse"): (
        "id",
        _ids("DOCFLOW_FUZZ_PROTECTED_DOCUMENTS"),
        "ffffffffffffffffffffffff",
    ),
}


@schemathesis.hook
def before_call(context, case, **kwargs):
    rule = PROTECTED.get((case.operation.method.upper(), case.operation.path))
    if rule is None:
        return
    parameter, ids, instead = rule
    if case.path_parameters.get(parameter) in ids:
        case.path_parameters[parameter] = instead
