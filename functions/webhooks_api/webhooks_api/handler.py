from docsvc.api.lambda_entry import api_handler

from webhooks_api.app import app

handler = api_handler(app, service="webhooks-api")
