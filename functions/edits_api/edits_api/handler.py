from docsvc.api.lambda_entry import api_handler

from edits_api.app import app

handler = api_handler(app, service="edits-api")
