from docsvc.api.lambda_entry import api_handler

from intelligence_api.app import app

handler = api_handler(app, service="intelligence-api")
