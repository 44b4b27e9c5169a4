from docsvc.api.lambda_entry import api_handler

from files_api.app import app

handler = api_handler(app, service="files-api")
