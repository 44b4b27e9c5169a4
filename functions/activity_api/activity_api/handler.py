from docsvc.api.lambda_entry import api_handler

from activity_api.app import app

handler = api_handler(app, service="activity-api")
