from docsvc.api.lambda_entry import api_handler

from secrets_api.app import app

handler = api_handler(app, service="secrets-api")
