from docsvc.api.lambda_entry import api_handler

from tables_api.app import app

handler = api_handler(app, service="tables-api")
