from docsvc.api.lambda_entry import api_handler

from evals_api.app import app

handler = api_handler(app, service="evals-api")
