"""The operations of the API, one module each: the body an operation takes, the resource it answers,
and the one object whose `answer` both its HTTP route and its job call, so the two cannot drift.

An `Operation` (docsvc.endpoints.operation) is an endpoint a job can run: the job runner
(docsvc.endpoints.jobs) finds every one in this package's modules. Adding an operation is adding its
module here, its route, and its function in template.yaml."""
