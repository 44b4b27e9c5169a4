from docsvc.api.lambda_entry import api_handler

from workflows_api.app import app

handler = api_handler(app, service="workflows-api")
