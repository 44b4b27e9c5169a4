from docsvc.api.lambda_entry import api_handler

from parses_api.app import app

handler = api_handler(app, service="parses-api")
