from docsvc.api.lambda_entry import api_handler

from console.app import app

handler = api_handler(app, service="console")
