from docsvc.api.lambda_entry import api_handler

from jobs_api.app import app

handler = api_handler(app, service="jobs-api")
