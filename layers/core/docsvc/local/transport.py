"""An httpx transport that sends requests through the gateway to the functions, in this process.

Tests and tools get the whole API path (routes of template.yaml, API Gateway events, Mangum, the
handlers' decorators) without a socket: `httpx.Client(transport=LambdaTransport(routes))`.
"""

from __future__ import annotations

import httpx

from docsvc.local.gateway import RouteTable, dispatch


class LambdaTransport(httpx.BaseTransport):
    def __init__(self, routes: RouteTable) -> None:
        self.routes = routes

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        target = request.url.raw_path.decode("ascii")
        headers = {name.lower(): value for name, value in request.headers.items()}
        answer = dispatch(
            self.routes, request.method, target, headers, body, host=request.url.netloc.decode()
        )
        return httpx.Response(answer.status, headers=answer.headers, content=answer.body, request=request)
