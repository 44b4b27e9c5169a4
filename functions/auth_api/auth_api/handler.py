from docsvc.api.lambda_entry import api_handler

from auth_api.app import app

handler = api_handler(app, service="auth-api")
